// The default output of the timeline verb: kubectl's borderless aligned columns, every cell escaped.

import type { Event, ObjectRef } from '../core/event.ts';
import type { EventStanding, Incarnation } from '../core/incarnation.ts';
import { formatAge } from './duration.ts';
import { formatLastSeen } from './last-seen.ts';
import { formatQualifiedObjectRef, kindsInSeveralGroups } from '../core/timeline.ts';
import { paintType } from './color.ts';
import type { Palette } from './color.ts';
import { DEFAULT_CELL_WIDTH, truncateCell, truncateCellStart } from './escape.ts';
import { rowLayout, widenColumns } from './table.ts';
import { formatTime } from './time.ts';
import { escapeOrNone } from './words.ts';
import type { TreeNode } from '../core/ownership.ts';
import { formatChain } from './tree.ts';

export interface TimelineTableOptions {
  now: number;
  wide: boolean;
  allNamespaces: boolean;
  /** several contexts read together: a CONTEXT column first, the context each event came from */
  contexts?: boolean;
  noHeaders: boolean;
  palette: Palette;
  /** Longest cell in characters; default DEFAULT_CELL_WIDTH (1024), and no limit with wide (0 = no limit). */
  maxCellWidth?: number;
  /** --absolute-times: RFC 3339 times instead of ages */
  absoluteTimes?: boolean;
  /** What the live cluster says about each event (incarnation, still on the server); none: nothing marked. */
  standing?: (ev: Event) => EventStanding;
  /** --tree: where each event's object sits (root first); the OBJECT cell shows the chain */
  chainOf?: (ev: Event) => readonly TreeNode[] | undefined;
  /** wide: what each event's object is doing now (src/core/current-status.ts); absent: no status was read, no column */
  statusOf?: (ev: Event) => string;
}

/** Marks a type outside Normal/Warning so it shows without colour; `--types=Warning` would hide it. */
const UNCONVENTIONAL_MARK = '!';

/**
 * After the OBJECT cell: the event is about an earlier incarnation of Kind/name (deleted, then created
 * again with a new uid), or about an object that no longer exists. Current and unknown add nothing.
 */
const INCARNATION_MARKS: Partial<Record<Incarnation, string>> = { previous: ' (previous)', gone: ' (gone)' };

/** After the LAST SEEN cell (--compare): the saved file holds the event, the server no longer does. */
export const NOT_ON_SERVER_MARK = ' [not on server]';

interface Column {
  head: string;
  /** `shared`: the Kinds two groups share among the rows (core/timeline.ts kindsInSeveralGroups) */
  cell(ev: Event, now: number, shared: ReadonlySet<string>, standing: EventStanding): string;
  /** text added after the escaped, cut cell, so a long value never hides it */
  mark?(standing: EventStanding): string;
  /** the padded cell in colour (TYPE: an unconventional type marked) */
  paint?(ev: Event, cell: string, palette: Palette): string;
  /** a long cell is cut at its start, not its end (the chain: its end is the event's object) */
  keepEnd?: boolean;
  /** the cell and its mark depend on the event's object alone: made once per ObjectRef (core/compact.ts shares them) */
  perObject?: boolean;
}

const NAMESPACE: Column = { head: 'NAMESPACE', cell: (ev) => ev.namespace };
const CONTEXT: Column = { head: 'CONTEXT', cell: (ev) => ev.cluster?.context ?? '' };
const AGES: Column[] = [
  { head: 'FIRST SEEN', cell: (ev, now) => formatAge(ev.firstSeen, now) },
  { head: 'LAST SEEN', cell: (ev, now) => formatLastSeen(ev, now), mark: (s) => (s.onServer === false ? NOT_ON_SERVER_MARK : '') },
];
/** --absolute-times: the times themselves; a repeat keeps its count (the first time is the column before). */
const TIMES: Column[] = [
  { head: 'FIRST SEEN', cell: (ev) => (ev.firstSeen === null ? '<unknown>' : formatTime(ev.firstSeen)) },
  {
    head: 'LAST SEEN',
    cell: (ev) => `${ev.lastSeen === null ? '<unknown>' : formatTime(ev.lastSeen)}${ev.count > 1 ? ` (x${ev.count})` : ''}`,
    mark: (s) => (s.onServer === false ? NOT_ON_SERVER_MARK : ''),
  },
];
const OBJECT: Column = {
  head: 'OBJECT',
  perObject: true,
  cell: (ev, _now, shared) => formatQualifiedObjectRef(ev.object, shared),
  mark: (s) => (s.incarnation === undefined ? '' : (INCARNATION_MARKS[s.incarnation] ?? '')),
};
const BASE: Column[] = [
  { head: 'TYPE', cell: (ev) => ev.type, paint: (ev, cell, palette) => paintType(ev.type, cell, palette, UNCONVENTIONAL_MARK) },
  { head: 'REASON', cell: (ev) => ev.reason },
  OBJECT,
  { head: 'FROM', cell: (ev) => ev.reporter },
];
const WIDE: Column[] = [
  { head: 'INSTANCE', cell: (ev) => ev.instance },
  { head: 'ACTION', cell: (ev) => ev.action },
  { head: 'COUNT', cell: (ev) => String(ev.count) },
  { head: 'NAME', cell: (ev) => ev.name },
  { head: 'OBJECT UID', cell: (ev) => ev.object.uid },
];
// kubectl events trims the message; it goes last so a long one only widens the right edge.
const MESSAGE: Column = { head: 'MESSAGE', cell: (ev) => ev.message.trim() };

/**
 * --tree: OBJECT shows the owner chain (`Deployment/web > ReplicaSet/web-5d4 > Pod/web-5d4-x2k`),
 * a member that no longer exists marked (gone) by the tree; wide adds the owner's uid beside the object's.
 */
function treeColumns(chainOf: NonNullable<TimelineTableOptions['chainOf']>, wide: boolean): { base: Column[]; wide: Column[] } {
  const object: Column = {
    head: 'OBJECT',
    keepEnd: true,
    cell: (ev, _now, shared, standing) => {
      const chain = chainOf(ev);
      if (chain === undefined) return formatQualifiedObjectRef(ev.object, shared);
      // One mark for the event's own object: an earlier incarnation (a StatefulSet's db-1 deleted and
      // made again) is gone too, but `(previous)` says more (its name holds a newer object now, the
      // rows of `Pod/db-1` unmarked) and is what the table without --tree says of it.
      return formatChain(standing.incarnation === 'previous' ? withoutLastGone(chain) : chain, shared);
    },
    // The tree has already said (gone) of a member it knows is gone; a lookup's marks say the rest.
    mark: (s) => (s.incarnation === undefined || s.incarnation === 'gone' ? '' : (INCARNATION_MARKS[s.incarnation] ?? '')),
  };
  const owner: Column = { head: 'OWNER UID', cell: (ev) => chainOf(ev)?.at(-2)?.uid ?? '' };
  return { base: BASE.map((c) => (c === OBJECT ? object : c)), wide: wide ? [...WIDE, owner] : [] };
}

/** The chain with its last member (the event's own object) not marked gone. */
function withoutLastGone(chain: readonly TreeNode[]): readonly TreeNode[] {
  const last = chain.at(-1);
  return last === undefined || !last.gone ? chain : [...chain.slice(0, -1), { ...last, gone: false }];
}

function columnsFor(opts: TimelineTableOptions): Column[] {
  const tree = opts.chainOf === undefined ? null : treeColumns(opts.chainOf, opts.wide);
  const base = tree?.base ?? BASE;
  const wide = tree?.wide ?? (opts.wide ? WIDE : []);
  const statusOf = opts.statusOf;
  const status: Column[] = opts.wide && statusOf !== undefined ? [{ head: 'STATUS', cell: (ev) => statusOf(ev) }] : [];
  return [...(opts.contexts === true ? [CONTEXT] : []), ...(opts.allNamespaces ? [NAMESPACE] : []), ...(opts.absoluteTimes ? TIMES : AGES), ...base, ...wide, ...status, MESSAGE];
}

/**
 * One row per event in the order given (the caller sorts). Empty values print `<none>` like
 * `kubectl get` (kubectl events prints nothing, which makes a missing object look like `/`).
 * Returns '' for no events: "No events found" is a notice for stderr, not table output.
 */
export function renderTimelineTable(events: Event[], opts: TimelineTableOptions): string {
  return [...timelineTableChunks(events, opts)].join('');
}

/**
 * Text written at a time, in UTF-16 units: a piece stays below V8's large-object size (128 KiB),
 * so it dies young. Pieces of 1,000 rows (150-360 KiB) went to the large-object space, which only a
 * full collection frees: a 20,000-row table left about 20 MiB of them behind at its peak.
 */
const CHUNK_UNITS = 48 * 1024;

/**
 * renderTimelineTable in pieces of about CHUNK_UNITS. The rows are made twice, once to measure
 * the columns and once to lay them out, rather than held: a 200,000-event record's table then
 * costs the memory of one piece, not of the whole text three times over (cells, lines, joined).
 */
export function* timelineTableChunks(events: Event[], opts: TimelineTableOptions): Generator<string> {
  if (events.length === 0) return;
  const columns = columnsFor(opts);
  const shared = kindsInSeveralGroups(events);
  const max = opts.maxCellWidth ?? (opts.wide ? 0 : DEFAULT_CELL_WIDTH);
  const makeCell = (column: Column, ev: Event, standing: EventStanding): string => {
    const cut = column.keepEnd === true ? truncateCellStart : truncateCell;
    const cell = cut(escapeOrNone(column.cell(ev, opts.now, shared, standing)), max) + (column.mark?.(standing) ?? '');
    return column.paint === undefined ? cell : column.paint(ev, cell, opts.palette);
  };
  // Each row is made twice (below): an object's cell, once per object for all its events' rows.
  const objectCells = new Map<ObjectRef, string>();
  const cellOf = (column: Column, ev: Event, standing: EventStanding): string => {
    if (column.perObject !== true) return makeCell(column, ev, standing);
    let cell = objectCells.get(ev.object);
    if (cell === undefined) objectCells.set(ev.object, (cell = makeCell(column, ev, standing)));
    return cell;
  };
  const rowOf = (ev: Event, which: readonly Column[] = columns): string[] => {
    const standing = opts.standing?.(ev) ?? {};
    return which.map((column) => cellOf(column, ev, standing));
  };
  // The last column is not padded: its width is never needed, and MESSAGE is the costliest cell.
  const measured = columns.slice(0, -1);
  const head = columns.map((c) => c.head);
  const widths: number[] = [];
  if (!opts.noHeaders) widenColumns(widths, head.slice(0, -1));
  for (const ev of events) widenColumns(widths, rowOf(ev, measured));
  const layout = rowLayout(widths, GAP);
  let chunk = opts.noHeaders ? '' : `${layout(head)}\n`;
  for (const [index, ev] of events.entries()) {
    chunk += `${layout(rowOf(ev))}\n`;
    if (chunk.length >= CHUNK_UNITS || index === events.length - 1) {
      yield chunk;
      chunk = '';
    }
  }
}

/** Spaces between columns, as kubectl events prints them (its tabwriter's padding). */
const GAP = 3;

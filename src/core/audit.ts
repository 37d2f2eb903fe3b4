// The type audit: events that tools silently mishandle, each finding named for what goes wrong.
// Pure data in, pure data out; the command decides the exit status from hasFindings.

import type { Event } from './event.ts';
import { compareBytes, dedupeByUid, formatObjectRef } from './timeline.ts';
import { isConventionalType } from './types.ts';

export type FindingKind = 'unconventional-type' | 'unaggregatable-reason' | 'no-object-uid';

/** What exactly is wrong; render/audit-words.ts says why it hurts. */
type FindingCause =
  /** unconventional-type */
  | 'empty-type'
  | 'type-case'
  | 'type-unconventional'
  /** unaggregatable-reason */
  | 'empty-reason'
  | 'reason-too-long'
  | 'reason-sentence'
  | 'reason-not-camel'
  /** no-object-uid */
  | 'no-object'
  | 'no-uid';

export interface AuditFinding {
  kind: FindingKind;
  /** namespace/name of the Event object */
  event: string;
  /** Kind/name of the object the event is about, `<none>` for a missing part */
  object: string;
  reason: string;
  type: string;
  reporter: string;
  count: number;
  cause: FindingCause;
  /** several contexts read together: the one the event came from */
  context?: string;
}

/** What `kubectl events --types=<T>` does for one type, as read from kubectl's events.go. */
export interface KubectlTypeBehaviour {
  type: string;
  /** The command a user would try; null when the type cannot be written as a --types value. */
  command: string | null;
  /** accepted: kubectl runs; refused: Validate fails; not-expressible: no --types value selects exactly this type. */
  typesFlag: 'accepted' | 'refused' | 'not-expressible';
  /** kubectl's exit status for `command`; null when there is no command. */
  exitCode: number | null;
  /** What kubectl writes to stderr for `command`; null when it writes no error. */
  stderr: string | null;
  /** Whether `kubectl events --types=Warning` lists events of this type. */
  shownByTypesWarning: boolean;
  /** Whether an exact match on Warning (`--field-selector type=Warning`, most alert rules) finds it. */
  shownByExactWarning: boolean;
}

/** Findings with the same rule, cause, reporter, reason and type, told once with counts and an example. */
export interface FindingGroup {
  kind: FindingKind;
  cause: FindingCause;
  reporter: string;
  reason: string;
  type: string;
  /** findings (events) in the group */
  events: number;
  /** distinct objects (Kind/name) the events are about */
  objects: number;
  /** the sum of the events' counts */
  occurrences: number;
  /** the first finding in the report's order */
  example: AuditFinding;
  /** several contexts read together: those the group's events came from, in the report's order */
  contexts?: string[];
}

export interface AuditReport {
  /** How many events were examined. */
  checked: number;
  findings: AuditFinding[];
  /** the findings grouped, in the order of their first finding */
  groups: FindingGroup[];
  /** One entry per distinct unconventional type found, in byte order. */
  types: KubectlTypeBehaviour[];
  hasFindings: boolean;
}

export const TYPES_REFUSED_STDERR = 'error: valid --types are Normal or Warning';

const REASON_PATTERN = /^[A-Z][A-Za-z0-9]*$/;
// The API server's limit for reason on events that carry eventTime (pkg/apis/core/validation/events.go).
export const REASON_MAX = 128;

const KIND_ORDER: readonly FindingKind[] = ['unconventional-type', 'unaggregatable-reason', 'no-object-uid'];

/**
 * `uids: false` when the events come from a saved stable table, which carries no uids: a missing
 * object uid is then the table's silence, not the event's fault.
 */
export function auditEvents(events: Event[], opts: { uids: boolean } = { uids: true }): AuditReport {
  const unique = dedupeByUid(events);
  const findings = unique.flatMap((ev) => findingsFor(ev, opts.uids));
  findings.sort(
    (a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || compareBytes(a.context ?? '', b.context ?? '') || compareBytes(a.event, b.event),
  );
  const offending = [...new Set(findings.filter((f) => f.kind === 'unconventional-type').map((f) => f.type))];
  offending.sort(compareBytes);
  return {
    checked: unique.length,
    findings,
    groups: groupFindings(findings),
    types: offending.map(describeKubectlTypes),
    hasFindings: findings.length > 0,
  };
}

function groupFindings(findings: AuditFinding[]): FindingGroup[] {
  const groups = new Map<string, { group: FindingGroup; objects: Set<string> }>();
  for (const f of findings) {
    const key = [f.kind, f.cause, f.reporter, f.reason, f.type].join('\u0000');
    const found = groups.get(key);
    // The same Kind/name in two clusters is two objects.
    const object = f.context === undefined ? f.object : `${f.context}\u0000${f.object}`;
    if (found === undefined) {
      const contexts = f.context === undefined ? {} : { contexts: [f.context] };
      groups.set(key, { group: { kind: f.kind, cause: f.cause, reporter: f.reporter, reason: f.reason, type: f.type, events: 1, objects: 1, occurrences: f.count, example: f, ...contexts }, objects: new Set([object]) });
    } else {
      found.group.events += 1;
      found.group.occurrences += f.count;
      found.objects.add(object);
      found.group.objects = found.objects.size;
      if (f.context !== undefined && found.group.contexts !== undefined && !found.group.contexts.includes(f.context)) found.group.contexts.push(f.context);
    }
  }
  return [...groups.values()].map((g) => g.group);
}

function findingsFor(ev: Event, uids: boolean): AuditFinding[] {
  const found: AuditFinding[] = [];
  const add = (kind: FindingKind, cause: FindingCause): void => {
    found.push({
      kind,
      event: ev.namespace ? `${ev.namespace}/${ev.name}` : ev.name,
      object: formatObjectRef(ev.object),
      reason: ev.reason,
      type: ev.type,
      reporter: ev.reporter,
      count: ev.count,
      cause,
      ...(ev.cluster === undefined ? {} : { context: ev.cluster.context }),
    });
  };
  if (!isConventionalType(ev.type)) add('unconventional-type', typeCause(ev.type));
  const reasonProblem = reasonCause(ev.reason);
  if (reasonProblem !== null) add('unaggregatable-reason', reasonProblem);
  if (uids && ev.object.uid === '') add('no-object-uid', ev.object.kind === '' && ev.object.name === '' ? 'no-object' : 'no-uid');
  return found;
}

function typeCause(type: string): FindingCause {
  if (type === '') return 'empty-type';
  return isNormalOrWarningFold(type) ? 'type-case' : 'type-unconventional';
}

/** null when the reason is a short CamelCase key; otherwise what is wrong with it. */
function reasonCause(reason: string): FindingCause | null {
  if (reason === '') return 'empty-reason';
  if (reason.length > REASON_MAX) return 'reason-too-long';
  if (REASON_PATTERN.test(reason)) return null;
  return /\s/.test(reason) ? 'reason-sentence' : 'reason-not-camel';
}

function isNormalOrWarningFold(value: string): boolean {
  // kubectl compares with strings.EqualFold; for these ASCII words toLowerCase is the same test.
  const lower = value.toLowerCase();
  return lower === 'normal' || lower === 'warning';
}

/**
 * kubectl events (k8s.io/kubectl/pkg/cmd/events/events.go): --types is a pflag StringSlice, read as CSV;
 * Validate accepts each value only if strings.EqualFold(value, "Normal" or "Warning"), else it fails with
 * "valid --types are Normal or Warning" (printed as "error: ..." and exit 1 by cmdutil.CheckErr).
 * The filter itself also uses EqualFold, so --types=Warning lists a lower-case "warning" event.
 * `--types=` is read as an empty list, which means no filter at all.
 */
export function describeKubectlTypes(type: string): KubectlTypeBehaviour {
  const behaviour = (command: string | null, typesFlag: KubectlTypeBehaviour['typesFlag'], exitCode: number | null, stderr: string | null): KubectlTypeBehaviour => ({
    type,
    command,
    typesFlag,
    exitCode,
    stderr,
    shownByTypesWarning: type.toLowerCase() === 'warning',
    shownByExactWarning: type === 'Warning',
  });
  // No --types value selects an empty type (`--types=` is no filter at all), nor one with a comma (split as CSV).
  if (type === '') return behaviour(null, 'not-expressible', null, null);
  const parts = type.split(',');
  const command = `kubectl events --types=${shellQuote(type)}`;
  if (!parts.every(isNormalOrWarningFold)) return behaviour(command, 'refused', 1, TYPES_REFUSED_STDERR);
  if (parts.length > 1) return behaviour(null, 'not-expressible', null, null);
  return behaviour(command, 'accepted', 0, null);
}

// Only for showing the command: a type with spaces or quotes must still be pasteable.
function shellQuote(value: string): string {
  return /^[A-Za-z0-9._,=-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}

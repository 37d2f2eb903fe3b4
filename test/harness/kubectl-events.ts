// The plugin's table beside the real `kubectl events` on the same events: what real controllers
// and recorders wrote must read the same in both (issue 10: any disagreement about real
// controller output is a bug). Both print aligned columns (kubectl through text/tabwriter), so a
// row is cut at the header's column starts. The plugin adds FIRST SEEN and FROM and orders rows
// by first occurrence (kubectl by last): rows are compared as a sorted list, on kubectl's columns.
// Ages are masked, as the two reads happen a moment apart; the count and "over" parts stay.
// The plugin's own marks after OBJECT, ` (gone)` and ` (previous)` (the object no longer exists,
// or its name now holds a newer one: README, timeline), are what it adds to kubectl's row, not a
// disagreement; no object name holds a space, so kubectl never ends a cell that way.
import { kubectlOk } from './kubectl.ts';
import { evtimeline } from './plugin.ts';

/** kubectl events' columns (NAMESPACE too with -A). */
const COLUMNS = ['NAMESPACE', 'LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'];

/** Cuts each row of an aligned table at the header's column starts; keys are the header's names. */
function parseAlignedTable(text: string): Record<string, string>[] {
  const [header, ...rows] = text.split('\n').filter((l) => l.trim() !== '');
  if (header === undefined) return [];
  const starts: [string, number][] = [];
  for (const m of header.matchAll(/\S+(?: \S+)*/g)) starts.push([m[0], m.index]);
  return rows.map((row) =>
    Object.fromEntries(
      starts.map(([name, start], i) => {
        const end = starts[i + 1]?.[1];
        return [name, row.slice(start, end).trim()];
      }),
    ),
  );
}

/** `5m3s (x4 over 2h)` -> `AGE (x4 over AGE)`: HumanDuration ages (apimachinery pkg/util/duration) masked. */
function maskAges(lastSeen: string): string {
  return lastSeen.replace(/\b\d+[smhdy](?:\d+[smhdy])?\b/g, 'AGE');
}

function cell(column: string, text: string): string {
  if (column === 'LAST SEEN') return maskAges(text);
  if (column === 'OBJECT') return text.replace(/ \((?:gone|previous)\)$/, '');
  return text;
}

/** The rows of a table on kubectl's columns, ages masked, sorted: comparable across the two tools (and a saved file's table). */
export function comparableRows(table: string): string[] {
  return rowsOf(table)
    .map((r) => r.key)
    .sort();
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, y: 365 * 86400 };

/**
 * The seconds an age may stand for, [low, high): `79s` is [79, 80), `5m` [300, 360), `2h3m`
 * [7380, 7440) (HumanDuration drops what is below its last unit).
 */
function ageRange(age: string): [number, number] | undefined {
  const parts = [...age.matchAll(/(\d+)([smhdy])/g)];
  if (parts.length === 0 || parts.map((m) => m[0]).join('') !== age) return undefined;
  const low = parts.reduce((sum, m) => sum + Number(m[1]) * (UNIT_SECONDS[m[2] ?? 's'] ?? 1), 0);
  return [low, low + (UNIT_SECONDS[parts.at(-1)?.[2] ?? 's'] ?? 1)];
}

/** The ages in a LAST SEEN cell: the last occurrence's, and with `(xN over A)` the first's. */
function agesOf(lastSeen: string): string[] {
  return [...lastSeen.matchAll(/\b\d+[smhdy](?:\d+[smhdy])?\b/g)].map((m) => m[0]);
}

interface Row {
  key: string;
  ages: string[];
}

function rowsOf(table: string): Row[] {
  return parseAlignedTable(table).map((row) => ({
    key: COLUMNS.filter((c) => c in row).map((c) => cell(c, row[c] ?? '')).join(' | '),
    ages: agesOf(row['LAST SEEN'] ?? ''),
  }));
}

/**
 * Ages that cannot be the same time read `slack` seconds apart: rows of one key are paired in
 * order of age, and each pair's ranges must overlap once widened by the slack.
 */
function ageDisagreements(kubectl: Row[], plugin: Row[], slack: number): string[] {
  const byKey = (rows: Row[]) => {
    const m = new Map<string, string[][]>();
    for (const r of rows) m.set(r.key, [...(m.get(r.key) ?? []), r.ages]);
    for (const list of m.values()) list.sort((a, b) => (ageRange(a[0] ?? '')?.[0] ?? 0) - (ageRange(b[0] ?? '')?.[0] ?? 0));
    return m;
  };
  const theirs = byKey(kubectl);
  const ours = byKey(plugin);
  const out: string[] = [];
  for (const [key, list] of theirs) {
    list.forEach((ages, i) => {
      const mine = ours.get(key)?.[i] ?? [];
      const apart = (age: string, j: number) => {
        const a = ageRange(age);
        const b = ageRange(mine[j] ?? '');
        return !a || !b || a[0] - slack >= b[1] || b[0] - slack >= a[1];
      };
      if (ages.length !== mine.length || ages.some(apart)) out.push(`${key}: kubectl ${ages.join('/')}, plugin ${mine.join('/')}`);
    });
  }
  return out;
}

export interface Comparison {
  /** kubectl events' rows on its columns, ages masked, sorted. */
  kubectl: string[];
  /** The plugin's rows, the same way. */
  plugin: string[];
  /** Rows whose ages differ by more than the time between the reads (empty when they agree). */
  ages: string[];
}

/**
 * `kubectl events <scope>` and `kubectl evtimeline <scope>` (through kubectl's plugin mechanism)
 * on the same events: read kubectl, the plugin, kubectl again, until both kubectl reads agree
 * (controllers may still be writing), at most `attempts` times; returns the last reads.
 */
export async function readBoth(kubeconfig: string, scope: string[], attempts = 10): Promise<Comparison> {
  let last: Comparison = { kubectl: [], plugin: [], ages: [] };
  for (let i = 0; i < attempts; i++) {
    const t0 = performance.now();
    const before = comparableRows(await kubectlOk(kubeconfig, ['events', ...scope]));
    const r = await evtimeline(scope, kubeconfig);
    if (r.code !== 0) throw new Error(`kubectl evtimeline ${scope.join(' ')} exited ${r.code}: ${r.stderr}`);
    const afterText = await kubectlOk(kubeconfig, ['events', ...scope]);
    const slack = Math.ceil((performance.now() - t0) / 1000) + 1;
    const after = comparableRows(afterText);
    last = { kubectl: after, plugin: comparableRows(r.stdout), ages: ageDisagreements(rowsOf(afterText), rowsOf(r.stdout), slack) };
    if (before.join('\n') === after.join('\n')) return last;
  }
  return last;
}

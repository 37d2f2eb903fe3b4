// record --otlp's ledger: how much of a record each OTLP endpoint has confirmed, kept beside the
// record as FILE.otlp.json and replaced atomically (temp file, fsync, rename) after every
// confirmed batch, so a recorder killed at any moment resumes shipping exactly where the endpoint
// last said yes: nothing confirmed is sent again, nothing unconfirmed is skipped.
//
//   {"kind":"EvtimelineOtlpLedger","version":1,"recordHead":"<sha256 of the record's first line>",
//    "endpoints":{"http://collector:4318/v1/logs":{"bytes":123456,"logRecords":800,"at":"..."}}}
//
// `bytes` is an offset in the record just past a complete line. A record only grows (its torn last
// line is cut, never a complete one), so the offset stays valid; a ledger whose recordHead is not
// the record's first line belongs to another record (the file was replaced) and is ignored.
import { readFile } from 'node:fs/promises';
import { isObject } from '../core/json.ts';
import { writeFileAtomic } from '../io/atomic.ts';

const LEDGER_KIND = 'EvtimelineOtlpLedger';

interface EndpointProgress {
  /** record bytes confirmed: an offset just past a complete line */
  bytes: number;
  /** log records confirmed so far, over every run */
  logRecords: number;
  /** when the last confirmation came (ISO) */
  at: string;
}

export interface Ledger {
  kind: typeof LEDGER_KIND;
  version: 1;
  recordHead: string;
  endpoints: Record<string, EndpointProgress>;
}

function ledgerPath(recordPath: string): string {
  return `${recordPath}.otlp.json`;
}

/** sha256 of the record's first line: what ties a ledger to its record. */
export function recordHead(firstLine: string): string {
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(firstLine).digest('hex');
}

/** The ledger beside `recordPath`, or null when there is none or it is not one (then it is rewritten). */
export async function readLedger(recordPath: string): Promise<Ledger | null> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(ledgerPath(recordPath), 'utf8'));
  } catch {
    return null;
  }
  if (!isObject(value) || value.kind !== LEDGER_KIND || typeof value.recordHead !== 'string' || !isObject(value.endpoints)) return null;
  const endpoints: Record<string, EndpointProgress> = {};
  for (const [url, progress] of Object.entries(value.endpoints)) {
    if (!isObject(progress) || !Number.isSafeInteger(progress.bytes) || (progress.bytes as number) < 0) continue;
    endpoints[url] = {
      bytes: progress.bytes as number,
      logRecords: Number.isSafeInteger(progress.logRecords) ? (progress.logRecords as number) : 0,
      at: String(progress.at ?? ''),
    };
  }
  return { kind: LEDGER_KIND, version: 1, recordHead: value.recordHead, endpoints };
}

export async function writeLedger(recordPath: string, ledger: Ledger): Promise<void> {
  await writeFileAtomic(ledgerPath(recordPath), `${JSON.stringify(ledger)}\n`);
}

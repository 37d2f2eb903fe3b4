// What an adapter reports while it carries on (a watch that expired, a batch the collector wants
// again), as values: the verbs word them through src/render/adapter-notices.ts and write them to
// stderr, so src/kube and src/otlp hold no English (scripts/adapter-words.sh).

/** Following events (src/kube/watch.ts followEvents): `what` is the request that met trouble. */
/** `context`: several contexts followed together, the one that met it. */
export type WatchNotice = (
  | { kind: 'credential-refused'; what: 'watch' | 'list' }
  | { kind: 'expired'; what: 'watch' | 'list' }
  | { kind: 'retrying'; what: 'watch' | 'list'; error: string; delayMs: number }
) & { context?: string };

/** Shipping OTLP logs (src/otlp/ship.ts, record-ship.ts). */
export type ShipNotice =
  /** partial success; `claimed`: the count the endpoint gave when it was not believed (negative, or more than were sent) */
  | { kind: 'rejected'; origin: string; rejected: number; sent: number; message: string; claimed?: number }
  /** record --otlp: a batch the endpoint refused as bad data (400), passed over */
  | { kind: 'bad-data'; origin: string; refused: number; why: string }
  | { kind: 'retrying'; origin: string; why: string; delayMs: number }
  /** the ledger beside the record (FILE.otlp.json) says more was shipped than the record holds */
  | { kind: 'ledger-ahead'; record: string }
  | { kind: 'ledger-of-another-record'; record: string }
  /** an event version dated where OTLP's timeUnixNano cannot reach: said once a run */
  | { kind: 'time-out-of-range' };

/** What one OTLP endpoint answered over a run. */
export interface ShipTotals {
  /** log records the endpoint accepted */
  accepted: number;
  /** log records it answered 2xx for but reported as rejected (OTLP partial success): never retried */
  rejected: number;
  requests: number;
  retries: number;
}

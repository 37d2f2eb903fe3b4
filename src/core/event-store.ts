// The port aggregate-patch writes through: one named event read, and patched with the
// resourceVersion it was read at. The live cluster implements it (src/kube/event-store.ts); unit
// tests hand the verb an in-memory double (test/unit/commands/aggregate-patch.test.ts), never a fake API server.

/** core/v1 (count, lastTimestamp) or events.k8s.io/v1 (series): which API a patch goes through. */
export type EventsApi = 'core' | 'events.k8s.io';

/** What a patch came to: stored (or, dry run, validated) and the event as the server answered; or a conflict (another writer changed it since it was read). */
export type PatchOutcome = { kind: 'patched'; event: unknown } | { kind: 'conflict' };

export interface EventStore {
  /** the namespace the store reads and writes; null: all namespaces (nothing can be patched) */
  readonly namespace: string | null;
  /** the event as stored; null when there is none of that name */
  get(name: string): Promise<unknown>;
  /** a JSON merge patch (carrying the resourceVersion read); dryRun: validated, nothing stored */
  mergePatch(api: EventsApi, name: string, patch: unknown, opts: { dryRun: boolean }): Promise<PatchOutcome>;
}

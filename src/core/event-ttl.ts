// kube-apiserver's --event-ttl default, in a module of its own: --help names it, and the help is
// built before anything that reads events is compiled (src/chunk.ts verbsModule).

/** kube-apiserver's --event-ttl default. */
export const DEFAULT_EVENT_TTL_MS = 60 * 60 * 1000;

/** The plugin's verbs, in the order help and completion list them. */
export const VERBS = ['timeline', 'incident', 'type-audit', 'aggregate-patch', 'capture', 'record', 'export', 'wait'] as const;

/** One of the plugin's verbs. */
export type Verb = (typeof VERBS)[number];

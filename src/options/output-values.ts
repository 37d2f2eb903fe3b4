// The -o values each verb takes, apart from their parsing (src/options/output.ts): --help and
// completion list them before any printer is compiled (src/chunk.ts verbsModule).

/** The timeline's own formats; json, yaml, name and jsonpath are the document printers of src/options/output.ts. */
export const TIMELINE_OUTPUTS = ['table', 'wide', 'stable', 'html'] as const;

/** incident's own format; json, yaml and jsonpath are the document printers of src/options/output.ts. */
export const INCIDENT_OUTPUTS = ['text'] as const;

/** type-audit's own format; json, yaml, name and jsonpath are the document printers of src/options/output.ts. */
export const AUDIT_OUTPUTS = ['text'] as const;

/** The -o values a verb accepts, for its help and completion. */
export function outputValues(verbFormats: readonly string[], withName: boolean): string[] {
  return [...verbFormats, 'json', 'yaml', ...(withName ? ['name'] : []), 'jsonpath=', 'jsonpath-file=', 'jsonpath-as-json='];
}

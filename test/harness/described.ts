// What `kubectl describe` prints for an object's events, and the Why section of `incident`'s text,
// read back to compare the two.

/**
 * `kubectl describe`'s Warning rows of one reason in its Events: how many times each happened (the
 * Age column's `(xN over ...)`, once when absent) and its message (describe prints each on one line,
 * last column), without the prefix client-go's recorder puts on the eleventh different one
 * (`(combined from similar events): `, tools/record/events_cache.go), which the Why leaves out too.
 */
export function describedRows(described: string, reason: string): { times: number; message: string }[] {
  return described.split('\n').flatMap((l) => {
    const m = new RegExp(`^\\s+Warning\\s+${reason}\\s+\\S+(?: \\(x(\\d+) over \\S+\\))?\\s{2,}\\S+\\s{2,}(.*)$`).exec(l);
    return m === null ? [] : [{ times: Number(m[1] ?? 1), message: (m[2] as string).replace(/^\(combined from similar events\): /, '') }];
  });
}

/** The messages of describedRows. */
export function describedMessages(described: string, reason: string): string[] {
  return describedRows(described, reason).map((r) => r.message);
}

/** The Why section of an incident's text: its lines, without the title. */
export function whyOf(text: string): string[] {
  const start = text.indexOf('\nWhy\n');
  if (start < 0) return [];
  const rest = text.slice(start + 5);
  return rest.slice(0, rest.indexOf('\n\n')).split('\n');
}

// kubectl's merge rule for the named entries of several kubeconfig files (client-go clientcmd
// loader.go, mergo without overwrite): the first file to name an entry decides all of it.

/** The items of several lists, the first of each name kept, in first-appearance order. */
export function firstByName<T extends { name: string }>(lists: T[][]): T[] {
  const seen = new Map<string, T>();
  for (const list of lists) for (const item of list) if (!seen.has(item.name)) seen.set(item.name, item);
  return [...seen.values()];
}

/** The body key of each section's entries as written: `- name: x` then `cluster:` or `user:`. */
const BODY = { clusters: 'cluster', users: 'user' } as const;

export interface RawEntry<T> {
  /** the file that named it first, for paths written relative to it */
  file: string;
  name: string;
  body: T;
}

/**
 * One section's entries as written in each file's parsed text, for the fields client-node drops;
 * entries without a name are skipped, as kubectl cannot refer to them.
 */
export function firstEntries<T>(parsed: Array<{ file: string; doc: unknown }>, section: keyof typeof BODY): Array<RawEntry<T>> {
  const lists = parsed.map(({ file, doc }) => {
    const entries = ((doc as Record<string, unknown> | null)?.[section] ?? []) as Array<Record<string, unknown> | null>;
    return entries.filter((entry) => typeof entry?.name === 'string' && entry.name !== '').map((entry) => ({ file, name: entry!.name as string, body: (entry![BODY[section]] ?? {}) as T }));
  });
  return firstByName(lists);
}

export function ensureMaxRssHelper(): Promise<string>;

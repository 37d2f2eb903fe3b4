// The continue token of a paged LIST, checked. A healthy API server never hands out the same token
// twice in one list (each encodes the key to start after); a broken server or proxy that does would
// otherwise keep every read verb asking for the same page forever, memory growing.
import { ClusterError } from './cluster-error.ts';

/** A list this long (10 million objects at 500 a page) is not a list a server would serve: stop. */
export const MAX_PAGES = 20_000;

/** Remembers the tokens of one list; `next` says whether (and from where) to ask for another page. */
export function continueTokens(what: string): { next(token: unknown): string | undefined } {
  const seen = new Set<string>();
  return {
    next(token) {
      if (typeof token !== 'string' || token === '') return undefined;
      if (seen.has(token)) throw new ClusterError({ kind: 'same-continue-token', what });
      seen.add(token);
      if (seen.size >= MAX_PAGES) throw new ClusterError({ kind: 'too-many-pages', what, pages: MAX_PAGES });
      return token;
    },
  };
}

// The continue token of a paged LIST, checked. A healthy API server never hands out the same token
// twice in one list (each encodes the key to start after); a broken server or proxy that does would
// otherwise keep every read verb asking for the same page forever, memory growing.
import { RuntimeError } from '../errors.ts';

/** A list this long (10 million objects at 500 a page) is not a list a server would serve: stop. */
export const MAX_PAGES = 20_000;

/** Remembers the tokens of one list; `next` says whether (and from where) to ask for another page. */
export function continueTokens(what: string): { next(token: unknown): string | undefined } {
  const seen = new Set<string>();
  return {
    next(token) {
      if (typeof token !== 'string' || token === '') return undefined;
      if (seen.has(token)) throw new RuntimeError(`the API server sent the same continue token twice while listing ${what}: stopping instead of reading the same page forever`);
      seen.add(token);
      if (seen.size >= MAX_PAGES) throw new RuntimeError(`listing ${what} went past ${MAX_PAGES} pages: stopping`);
      return token;
    },
  };
}

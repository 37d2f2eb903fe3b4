// Its own file because both the sources (source.ts) and the comparison (incarnation.ts) name it,
// and source.ts already imports incarnation.ts.
/** A context of several that did not answer a read: the others' events are still shown. */
export interface Unanswered {
  context: string;
  server: string;
  /** the error's one line, in the words a lone read of it would have said */
  reason: string;
}

// Why an object could not be looked up (core/incarnation.ts LookupFailure), in words: the incident
// text and its -o json both say it this way.
import type { LookupFailure } from '../core/incarnation.ts';

export function lookupFailureText(why: LookupFailure): string {
  switch (why.reason) {
    case 'not-looked-up':
      return 'not looked up';
    case 'no-version':
      return `apiVersion ${why.apiVersion} names no version`;
    case 'not-served':
      return `${why.apiVersion} is no longer served`;
    case 'no-kind':
      return `${why.apiVersion} serves no kind ${why.kind}`;
    case 'no-get':
      return `${why.resource} cannot be read with get`;
    case 'no-namespace':
      return `the event names no namespace for ${why.kind} ${why.name}`;
    case 'invalid-name':
      return why.detail;
    case 'another-object':
      return `the server answered for ${why.kind} ${why.name} with another object`;
    case 'no-uid':
      return `the server sent ${why.kind} ${why.name} without a uid`;
    case 'forbidden':
      return `not allowed to ${why.step} ${why.target}`;
    case 'failed':
      return `cannot ${why.step} ${why.target}: ${why.detail}`;
  }
}

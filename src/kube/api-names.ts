// Names in request paths: a name the plugin did not choose is refused, before any request is sent,
// when the API server would refuse it as a path segment (the rules: src/core/object-names.ts).
import { RuntimeError } from '../errors.ts';
import { describeEmptyName, describeNameProblems, pathSegmentProblems } from '../core/object-names.ts';

/** A name that cannot be put in a path: raised by pathSegment, before any request is sent. */
export class InvalidNameError extends RuntimeError {
  override name = 'InvalidNameError';
}

/**
 * One path segment built from a name the plugin did not choose (a flag, an event's involvedObject):
 * refused when the API server would refuse it as a path segment, else percent-encoded. Objects
 * other than Events and Namespaces follow their own, looser name rules (an RBAC role may be named
 * `system:controller:x`), so only the path-segment rule, which every object obeys, is checked here.
 */
export function pathSegment(what: string, name: string): string {
  if (name === '') throw new InvalidNameError(describeEmptyName(what));
  const problems = pathSegmentProblems(name);
  if (problems.length > 0) throw new InvalidNameError(describeNameProblems(what, name, problems));
  return encodeURIComponent(name);
}

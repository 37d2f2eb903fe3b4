// The errors src/kube raises of its own finding: each carries what went wrong as a value
// (core/cluster-problems.ts), and its message is that value in render/cluster-words.ts's words, so
// whoever prints the message (main, the several-contexts warning, a retry notice, a lookup's
// detail) says what the others say.
import { RuntimeError } from '../errors.ts';
import type { ClusterProblem } from '../core/cluster-problems.ts';
import { clusterProblemText } from '../render/cluster-words.ts';

/** A cluster that said no, or could not be read as asked: exit 1. */
export class ClusterError extends RuntimeError {
  constructor(readonly problem: ClusterProblem) {
    super(clusterProblemText(problem));
  }
}

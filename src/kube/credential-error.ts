// A credential this machine cannot make: an exec plugin that fails, a tokenFile or client
// certificate that cannot be read, an oidc id-token that has expired. kubectl stops at once on
// these (client-go returns the error from its round tripper before any request is sent), and the
// kubeconfig is read once, so a follower (-w, record) that asked again would only fail again: it
// stops too, with the one line the one-shot verbs print. A 401 is the server's word, not this.
import { RuntimeError } from '../errors.ts';
import type { ClusterProblem } from '../core/cluster-problems.ts';
import { clusterProblemText } from '../render/cluster-words.ts';

export class LocalCredentialError extends RuntimeError {
  override name = 'LocalCredentialError';
}

/** A credential problem of the plugin's own finding, worded by render/cluster-words.ts. */
export class CredentialProblem extends LocalCredentialError {
  constructor(readonly problem: ClusterProblem) {
    super(clusterProblemText(problem));
  }
}

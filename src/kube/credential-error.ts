// A credential this machine cannot make: an exec plugin that fails, a tokenFile or client
// certificate that cannot be read, an oidc id-token that has expired. kubectl stops at once on
// these (client-go returns the error from its round tripper before any request is sent), and the
// kubeconfig is read once, so a follower (-w, record) that asked again would only fail again: it
// stops too, with the one line the one-shot verbs print. A 401 is the server's word, not this.
import { RuntimeError } from '../errors.ts';

export class LocalCredentialError extends RuntimeError {
  override name = 'LocalCredentialError';
}

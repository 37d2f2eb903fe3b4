// A kubeconfig `auth-provider: {name: oidc}` as kubectl's client-go reads it
// (k8s.io/client-go/plugin/pkg/client/auth/oidc/oidc.go, v0.36.3): the id-token is sent while its
// unverified `exp` claim is more than 10 s away; otherwise a refresh-token is needed. We do not
// refresh (no issuer to test it against; client-node 2.0.1's refresh throws before it asks one):
// an expired id-token is a one-line error that says so, and that kubectl refreshes it.
// Errors name the provider, the user and why, never a token.
import { LocalCredentialError } from './credential-error.ts';

/** The provider's `config` map, as in the kubeconfig. */
type OidcConfig = Record<string, string>;

/** oidc.go:61 expiryDelta: a token this close to its exp counts as expired (clock skew). */
const EXPIRY_DELTA_MS = 10_000;

/** No id-token to send: asking again will not help (the kubeconfig is read once), so -w stops at once. */
class OidcTokenError extends LocalCredentialError {
  override name = 'OidcTokenError';
}

function oidcError(user: string, why: string): OidcTokenError {
  return new OidcTokenError(`auth-provider "oidc" of user "${user}": ${why}`);
}

const rfc3339 = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

/** newOIDCAuthProvider (oidc.go:112-120) refuses a provider without these, even when --token makes it unused. */
export function checkOidcConfig(config: OidcConfig, user: string): void {
  for (const key of ['idp-issuer-url', 'client-id']) if (!config[key]) throw oidcError(user, `must provide ${key}`);
}

/**
 * The id-token's `exp` in ms since the epoch, decoded without verifying the signature, as
 * idTokenExpired does (oidc.go:333-351): three dot-separated parts, unpadded base64url claims.
 * A missing exp is the zero time there, so always expired. Returns a reason when it is not a JWT.
 */
function expiry(idToken: string): number | string {
  const parts = idToken.split('.');
  if (parts.length !== 3) return 'the id-token is not a valid JWT';
  const payload = parts[1] ?? '';
  // Go's RawURLEncoding: no padding, no other alphabet; Node's decoder would accept both.
  if (!/^[A-Za-z0-9_-]*$/.test(payload) || payload.length % 4 === 1) return 'the id-token is not a valid JWT (its claims are not base64url)';
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return 'the id-token is not a valid JWT (its claims are not JSON)';
  }
  if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) return 'the id-token is not a valid JWT (its claims are not a JSON object)';
  const exp = (claims as { exp?: unknown }).exp;
  if (exp === undefined) return 0;
  // jsonTime (oidc.go:358-376): a JSON number, integer or float (truncated), in seconds.
  const seconds = typeof exp === 'number' ? exp : typeof exp === 'string' && exp.trim() !== '' ? Number(exp) : Number.NaN;
  if (!Number.isFinite(seconds)) return 'the id-token is not a valid JWT (its exp claim is not a number)';
  return Math.trunc(seconds) * 1000;
}

/**
 * The id-token to send as the bearer token (oidc.go:221-234), or an error saying why there is
 * none: client-go's own reason ("No valid id-token, and cannot refresh without refresh-token"),
 * or that this plugin does not refresh where kubectl would.
 */
export function oidcIdToken(config: OidcConfig, user: string, nowMs: number): string {
  checkOidcConfig(config, user);
  const idToken = config['id-token'] ?? '';
  let why = 'there is no id-token';
  if (idToken !== '') {
    const exp = expiry(idToken);
    if (typeof exp === 'string') throw oidcError(user, exp);
    if (nowMs + EXPIRY_DELTA_MS < exp) return idToken;
    if (exp === 0) why = 'the id-token has no exp claim';
    else if (exp <= nowMs) why = `the id-token expired at ${rfc3339(exp)}`;
    else why = `the id-token expires at ${rfc3339(exp)}, less than 10 s from now`;
  }
  if (!config['refresh-token']) throw oidcError(user, `${why}, and cannot refresh without refresh-token`);
  throw oidcError(
    user,
    `${why}, and kubectl evtimeline does not support refreshing it with the refresh-token; kubectl does and saves the new id-token in the kubeconfig: run e.g. kubectl auth whoami with the same kubeconfig and context, then this again`,
  );
}

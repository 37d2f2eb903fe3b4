import { test } from 'node:test';
import assert from 'node:assert/strict';
import { oidcIdToken } from '../../../src/kube/oidc.ts';
import { userExtras } from '../../../src/kube/overrides.ts';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A JWT with these claims; the signature is never checked on the client (oidc.go idTokenExpired). */
const jwt = (claims: unknown): string => `${b64({ alg: 'RS256' })}.${b64(claims)}.c2lnbmF0dXJl`;
const provider = (config: Record<string, string>) => ({ 'idp-issuer-url': 'https://issuer.example', 'client-id': 'kubernetes', ...config });
const inSeconds = (s: number): number => Math.floor(NOW / 1000) + s;

test('oidc: an id-token whose exp is more than 10 s away is the bearer token', () => {
  const token = jwt({ sub: 'me', exp: inSeconds(11) });
  assert.equal(oidcIdToken(provider({ 'id-token': token }), 'u', NOW), token);
});

test('oidc: a float exp is read as whole seconds, as client-go jsonTime does', () => {
  const token = jwt({ exp: inSeconds(3600) + 0.9 });
  assert.equal(oidcIdToken(provider({ 'id-token': token }), 'u', NOW), token);
});

const refused: Array<[string, Record<string, string>, string]> = [
  ['an expired id-token without a refresh-token', { 'id-token': jwt({ exp: inSeconds(-60) }) }, 'the id-token expired at 2026-11-30T11:59:00Z, and cannot refresh without refresh-token'],
  ['an id-token 10 s from expiry (client-go expiryDelta)', { 'id-token': jwt({ exp: inSeconds(10) }) }, 'the id-token expires at 2026-11-30T12:00:10Z, less than 10 s from now, and cannot refresh without refresh-token'],
  ['an id-token without exp (the zero time in client-go)', { 'id-token': jwt({ sub: 'me' }) }, 'the id-token has no exp claim, and cannot refresh without refresh-token'],
  ['no id-token and no refresh-token', {}, 'there is no id-token, and cannot refresh without refresh-token'],
  ['a token that is not three parts', { 'id-token': 'opaque-secret' }, 'the id-token is not a valid JWT'],
  ['padded claims (Go RawURLEncoding refuses them)', { 'id-token': `a.${b64({ exp: 1 })}==.c` }, 'the id-token is not a valid JWT (its claims are not base64url)'],
  ['claims that are not JSON', { 'id-token': `a.${Buffer.from('secret').toString('base64url')}.c` }, 'the id-token is not a valid JWT (its claims are not JSON)'],
  ['an exp that is not a number', { 'id-token': jwt({ exp: 'soon' }) }, 'the id-token is not a valid JWT (its exp claim is not a number)'],
];
for (const [name, config, why] of refused) {
  test(`oidc: ${name} is refused in one line naming the provider and user, never the token`, () => {
    assert.throws(
      () => oidcIdToken(provider(config), 'dev', NOW),
      (error: Error) => {
        assert.equal(error.message, `auth-provider "oidc" of user "dev": ${why}`);
        if (config['id-token']) assert.ok(!error.message.includes(config['id-token']));
        return true;
      },
    );
  });
}

test('oidc: an expired id-token with a refresh-token says refreshing is not supported, and how kubectl does it', () => {
  const config = provider({ 'id-token': jwt({ exp: inSeconds(-1) }), 'refresh-token': 'refresh-secret' });
  assert.throws(() => oidcIdToken(config, 'dev', NOW), (error: Error) => {
    assert.match(error.message, /^auth-provider "oidc" of user "dev": the id-token expired at 2026-11-30T11:59:59Z, and kubectl evtimeline does not support refreshing it with the refresh-token; kubectl does/);
    assert.ok(!error.message.includes('refresh-secret'));
    return true;
  });
});

test('oidc: idp-issuer-url and client-id are required, as client-go newOIDCAuthProvider says', () => {
  const token = jwt({ exp: inSeconds(3600) });
  assert.throws(() => oidcIdToken({ 'client-id': 'k', 'id-token': token }, 'u', NOW), { message: 'auth-provider "oidc" of user "u": must provide idp-issuer-url' });
  assert.throws(() => oidcIdToken({ 'idp-issuer-url': 'https://i', 'id-token': token }, 'u', NOW), { message: 'auth-provider "oidc" of user "u": must provide client-id' });
});

test('oidc: only an auth-provider named oidc is taken from the kubeconfig user', () => {
  assert.deepEqual(userExtras({ 'auth-provider': { name: 'oidc', config: { 'client-id': 'k' } } }, {}), { oidc: { 'client-id': 'k' } });
  assert.deepEqual(userExtras({ 'auth-provider': { name: 'gcp', config: {} } }, {}), {});
});

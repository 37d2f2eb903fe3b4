// Credentials client-node does not apply for us (see overrides.ts): a kubeconfig tokenFile, an
// exec credential plugin run as client-go runs it, an oidc auth-provider, and impersonation headers. Errors name the
// mechanism and why it failed, never the secret.
import { readFile } from 'node:fs/promises';
import type https from 'node:https';
import { CredentialProblem, LocalCredentialError } from './credential-error.ts';
import type { ExecCredential } from './exec-credential.ts';
import type { KubeTarget, TargetAuth } from './kubeconfig.ts';
import { checkOidcConfig, oidcIdToken } from './oidc.ts';
import { errnoText } from '../io/errno.ts';

/** The exec plugin's credential each request's options carry, for a 401 to hand back (refusedExecCredential). */
const execCredentials = new WeakMap<https.RequestOptions, ExecCredential>();

/** A request carrying `options` got 401: its exec credential, if it had one, is not used again (true). */
export function refusedExecCredential(options: https.RequestOptions, auth: TargetAuth): boolean {
  const credential = execCredentials.get(options);
  if (credential === undefined) return false;
  auth.execCache.refused(credential);
  return true;
}

/** The last token each tokenFile gave, for a read that fails later (a projected token being rotated). */
const lastTokens = new Map<string, string>();

/**
 * client-go's cachingTokenSource (transport/token_source.go Token): a file that cannot be read, or
 * is empty, is an error only while no token has been read from it yet; afterwards the last token
 * is sent and the failure logged ("Unable to rotate token"). A failure is final under -w and record.
 */
export async function readTokenFile(path: string): Promise<string> {
  let token: string;
  try {
    // It trims the file and refuses an empty one.
    token = (await readFile(path, 'utf8')).trim();
    if (token === '') throw new CredentialProblem({ kind: 'token-file-empty', path });
  } catch (error) {
    const last = lastTokens.get(path);
    if (last !== undefined) return last;
    throw error instanceof LocalCredentialError ? error : new CredentialProblem({ kind: 'token-file-unreadable', path, why: errnoText(error) });
  }
  lastTokens.set(path, token);
  return token;
}

export async function applyAuth(options: https.RequestOptions, auth: TargetAuth, target: KubeTarget): Promise<void> {
  const headers = options.headers as Record<string, string | string[]>;
  if (auth.oidc) checkOidcConfig(auth.oidc, auth.user);
  if (headers.Authorization === undefined && headers.authorization === undefined) {
    if (auth.oidc) {
      // client-go's oidc round tripper, checked before each request (oidc.go:196-216).
      headers.Authorization = `Bearer ${oidcIdToken(auth.oidc, auth.user, Date.now())}`;
    } else if (auth.tokenFile) {
      headers.Authorization = `Bearer ${await readTokenFile(auth.tokenFile)}`;
    } else if (auth.exec) {
      const cluster = target.config.getCurrentCluster();
      const credential = await auth.execCache.get(auth.exec, {
        user: auth.user,
        server: target.server,
        caData: cluster?.caData,
        tlsServerName: cluster?.tlsServerName,
        insecureSkipTlsVerify: cluster?.skipTLSVerify,
        stdinIsTTY: auth.stdinIsTTY,
        env: auth.env,
        now: () => Date.now(),
        stderr: (text) => (target.log ?? ((t: string) => process.stderr.write(t)))(text),
      });
      execCredentials.set(options, credential);
      if (credential.token) headers.Authorization = `Bearer ${credential.token}`;
      if (credential.clientCertificateData && credential.clientKeyData) {
        if (cluster?.proxyUrl) throw new CredentialProblem({ kind: 'exec-certificate-through-proxy', command: auth.exec.command });
        // client-node built its agent before the plugin ran: a fresh one carries the certificate.
        const { Agent } = process.getBuiltinModule('node:https');
        options.agent = new Agent({ ca: options.ca, cert: credential.clientCertificateData, key: credential.clientKeyData, servername: options.servername, rejectUnauthorized: options.rejectUnauthorized });
      }
    }
  }
  // client-go's ImpersonatingRoundTripper: one Impersonate-Group header per group.
  if (auth.impersonate) {
    headers['Impersonate-User'] = auth.impersonate.user;
    if (auth.impersonate.groups.length > 0) headers['Impersonate-Group'] = auth.impersonate.groups;
    if (auth.impersonate.uid) headers['Impersonate-Uid'] = auth.impersonate.uid;
  }
}

/** A 401 in one line: which credentials the server refused. */
export function unauthorizedMessage(server: string, description: string): string {
  return `the API server at ${server} refused the credentials (401 Unauthorized): ${description}`;
}

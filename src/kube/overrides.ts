// kubectl's global connection flags over the kubeconfig, with client-go's precedence
// (k8s.io/client-go/tools/clientcmd client_config.go getCluster/getAuthInfo), and the kubeconfig
// fields client-node drops: `tokenFile` (it reads `token-file`, which kubectl does not know),
// `as-groups`, `as-uid`, and exec's paths relative to the kubeconfig.
import { dirname, isAbsolute, join } from 'node:path';
import type { Cluster, User } from '@kubernetes/client-node';
import { RuntimeError } from '../errors.ts';
import { resolveExecCommand } from './exec-credential.ts';
import { firstEntries } from './first-named.ts';
import type { ExecConfig } from './exec-credential.ts';
import type { ConnectionOverrides } from '../core/connection.ts';

/** --as-uid or --as-group (or the kubeconfig's as-uid, as-groups) without a user to impersonate; src/options/user-errors.ts words it. */
export class ImpersonationError extends RuntimeError {
  constructor() {
    super('no-user-to-impersonate');
  }
}

interface Impersonation {
  user: string;
  groups: string[];
  uid?: string;
}

/** What the plugin needs beyond client-node's view of the user: read from the kubeconfig itself. */
export interface UserExtras {
  tokenFile?: string;
  exec?: ExecConfig;
  /** an `auth-provider: {name: oidc}` config, which we apply ourselves (oidc.ts), not client-node */
  oidc?: Record<string, string>;
  impersonate?: Impersonation;
}

export interface RawUser {
  tokenFile?: string;
  as?: string;
  'as-groups'?: string[];
  'as-uid'?: string;
  exec?: ExecConfig;
  'auth-provider'?: { name?: string; config?: Record<string, string> };
}

/** Users' raw entries by name from each file's parsed text, the first file to name one winning, paths made absolute. */
export function rawUsersOf(parsed: Array<{ file: string; doc: unknown }>): Map<string, RawUser> {
  const users = new Map<string, RawUser>();
  for (const { file, name, body } of firstEntries<RawUser>(parsed, 'users')) {
    const user = { ...body };
    if (user.tokenFile && !isAbsolute(user.tokenFile)) user.tokenFile = join(dirname(file), user.tokenFile);
    if (user.exec?.command) user.exec = { ...user.exec, command: resolveExecCommand(user.exec.command, file) };
    users.set(name, user);
  }
  return users;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The cluster as client-go merges it: the kubeconfig's, then the flags. */
export function overrideCluster(cluster: Cluster, o: ConnectionOverrides): Cluster {
  const out: Mutable<Cluster> = { ...cluster };
  if (o.server) out.server = o.server.replace(/\/$/, '');
  // --insecure-skip-tls-verify or --certificate-authority replace the kubeconfig's CA and skip setting.
  if (o.insecureSkipTlsVerify || o.certificateAuthority) {
    out.skipTLSVerify = o.insecureSkipTlsVerify === true;
    out.caFile = o.certificateAuthority || undefined;
    out.caData = undefined;
  }
  // --server clears the kubeconfig's tls-server-name unless --tls-server-name is given too.
  if (o.tlsServerName || o.server) out.tlsServerName = o.tlsServerName || undefined;
  return out;
}

/** The user as client-go merges it. A --token wins over an exec plugin (its round tripper defers to an Authorization header). */
export function overrideUser(user: User, o: ConnectionOverrides): User {
  const out: Mutable<User> = { ...user };
  if (o.token) out.token = o.token;
  if (o.clientCertificate) {
    out.certFile = o.clientCertificate;
    out.certData = undefined;
  }
  if (o.clientKey) {
    out.keyFile = o.clientKey;
    out.keyData = undefined;
  }
  return out;
}

export function userExtras(raw: RawUser | undefined, o: ConnectionOverrides): UserExtras {
  const extras: UserExtras = {};
  if (raw?.tokenFile) extras.tokenFile = raw.tokenFile;
  if (raw?.exec) extras.exec = raw.exec;
  if (raw?.['auth-provider']?.name === 'oidc') extras.oidc = { ...(raw['auth-provider'].config ?? {}) };
  const user = o.as || raw?.as;
  const groups = o.asGroups?.length ? o.asGroups : (raw?.['as-groups'] ?? []);
  const uid = o.asUid || raw?.['as-uid'];
  // client-go: impersonating groups or a uid without a user is an error.
  if (!user && (groups.length > 0 || uid)) {
    throw new ImpersonationError();
  }
  if (user) extras.impersonate = { user, groups, ...(uid ? { uid } : {}) };
  return extras;
}

/** How the request authenticates, in words for an error (never the secret itself). */
export function describeCredentials(user: User, extras: UserExtras, o: ConnectionOverrides): string {
  const parts: string[] = [];
  if (o.token) parts.push('the bearer token from --token');
  else if (user.token) parts.push(`the bearer token of kubeconfig user "${user.name}"`);
  else if (extras.tokenFile) parts.push(`the bearer token in tokenFile ${extras.tokenFile}`);
  else if (extras.exec) parts.push(`the token from exec credential plugin ${JSON.stringify(extras.exec.command)}`);
  else if (extras.oidc) parts.push(`the id-token of auth-provider "oidc" of kubeconfig user "${user.name}"`);
  if (user.certFile || user.certData) parts.push(`the client certificate ${user.certFile ? user.certFile : `of kubeconfig user "${user.name}"`}`);
  if (user.authProvider && !extras.oidc) parts.push(`auth-provider ${JSON.stringify(user.authProvider.name ?? '')}`);
  if (user.username) parts.push(`basic auth for "${user.username}"`);
  return parts.length === 0 ? 'no credentials (kubeconfig user has none)' : parts.join(' and ');
}

// Kubeconfig loading the way kubectl does it, on top of client-node's KubeConfig.
// client-node's loadFromDefault differs from kubectl in three ways we must not inherit:
// with KUBECONFIG=a:b it takes the LAST file's current-context (kubectl: the first that sets it),
// a name repeated across files throws "Duplicate cluster" (kubectl: the first wins), and with no
// config at all it silently talks to localhost:8080 (kubectl: an error).
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Cluster, Context, KubeConfig, User } from '@kubernetes/client-node';
import { RuntimeError } from '../errors.ts';
import { namespaceError } from '../core/object-names.ts';
import { loadClientNode } from './client-node.ts';
import { ExecCredentialCache } from './exec-credential.ts';
import { KubeconfigTextError, parseKubeconfigText } from './kubeconfig-yaml.ts';
import { describeCredentials, overrideCluster, overrideUser, rawUsersOf, userExtras } from './overrides.ts';
import type { RawUser, UserExtras } from './overrides.ts';
import type { ConnectionOverrides } from '../core/connection.ts';
import { proxyFromEnvironment } from './proxy.ts';
import { errnoText } from '../io/errno.ts';
import { ClusterError } from './cluster-error.ts';
import { firstByName, firstEntries } from './first-named.ts';

interface KubeconfigRequest {
  kubeconfig?: string;
  context?: string;
  env: Record<string, string | undefined>;
  /** kubectl's global connection flags (--server, --token, --user, --as, ...) */
  overrides?: ConnectionOverrides;
  /** -v: 6 logs each request's line and status */
  verbosity?: number;
  /** where -v lines go (stderr) */
  log?: (line: string) => void;
  stdinIsTTY?: boolean;
}

export interface KubeTarget {
  config: KubeConfig;
  context: string;
  server: string;
  /** the context's namespace, else "default" */
  namespace: string;
  /** what client-node does not do for us: tokenFile, exec plugins, oidc, impersonation (absent: none) */
  auth?: TargetAuth;
  /** the kubeconfig's `disable-compression` or --disable-compression: no `Accept-Encoding: gzip` (http.ts) */
  disableCompression?: boolean;
  /** -v level and its log line writer */
  verbosity?: number;
  log?: (line: string) => void;
}

export interface TargetAuth extends UserExtras {
  user: string;
  /** the credentials in words, for an error */
  description: string;
  execCache: ExecCredentialCache;
  stdinIsTTY: boolean;
  env: Record<string, string | undefined>;
}

/**
 * A kubeconfig that cannot be chosen: the file --kubeconfig names is not there, no file is found
 * at all, or no context is current; or one kubectl would not load (`detail`: what encoding/json or
 * the YAML parser said); src/options/user-errors.ts says which flag helps.
 */
export class KubeconfigError extends RuntimeError {
  constructor(
    readonly problem: 'no-such-file' | 'none-found' | 'no-current-context' | 'not-loadable',
    readonly path = '',
    readonly detail = '',
  ) {
    super(path === '' ? problem : `${path}: ${problem}`);
  }
}

/** The files kubectl would read, in precedence order. */
export function kubeconfigFiles(req: KubeconfigRequest, exists: (path: string) => boolean = existsSync): string[] {
  if (req.kubeconfig) {
    if (!exists(req.kubeconfig)) throw new KubeconfigError('no-such-file', req.kubeconfig);
    return [req.kubeconfig];
  }
  const fromEnv = (req.env.KUBECONFIG ?? '').split(delimiter).filter((p) => p !== '');
  // kubectl skips KUBECONFIG entries that do not exist, and de-duplicates them.
  const present = [...new Set(fromEnv)].filter((p) => exists(p));
  if (fromEnv.length > 0) return present;
  const home = req.env.HOME ?? homedir();
  const fallback = join(home, '.kube', 'config');
  return exists(fallback) ? [fallback] : [];
}

type ClientNode = Awaited<ReturnType<typeof loadClientNode>>;

/**
 * client-node refuses an http:// server unless insecure-skip-tls-verify is set ("HTTP protocol is not
 * allowed when skipTLSVerify is not set or false"); kubectl talks to one (`kubectl proxy` serves
 * http://127.0.0.1:8001). Over plain HTTP there is no TLS to verify, so setting the flag changes
 * nothing but client-node's choice of an http.Agent.
 */
function allowPlainHttp(cluster: Cluster): Cluster {
  return cluster.server.startsWith('http:') ? { ...cluster, skipTLSVerify: true } : cluster;
}

/** Merges kubeconfig files with kubectl's rule: the first file to set a value wins. */
function mergeKubeconfigs(KubeConfigClass: ClientNode['KubeConfig'], configs: KubeConfig[]): KubeConfig {
  const merged = new KubeConfigClass();
  merged.loadFromOptions({
    clusters: firstByName<Cluster>(configs.map((c) => c.clusters)).map(allowPlainHttp),
    users: firstByName<User>(configs.map((c) => c.users)),
    contexts: firstByName<Context>(configs.map((c) => c.contexts)),
    currentContext: configs.map((c) => c.currentContext).find((name) => !!name) ?? '',
  });
  return merged;
}

/** One file read and parsed: client-node's view of it, and the text as kubectl reads it (for what client-node drops). */
function readFile(KubeConfigClass: ClientNode['KubeConfig'], path: string): { config: KubeConfig; doc: unknown } {
  const config = new KubeConfigClass();
  try {
    const text = readFileSync(path, 'utf8');
    // kubectl reads an empty file (`touch ~/.kube/config`) as an empty config; client-node throws.
    if (text.trim() === '') {
      config.loadFromOptions({ clusters: [], users: [], contexts: [], currentContext: '' });
      return { config, doc: null };
    }
    // Read as kubectl reads it (YAML 1.1, typed fields), then handed to client-node as JSON.
    const doc = parseKubeconfigText(text);
    config.loadFromString(JSON.stringify(doc));
    return { config, doc };
  } catch (error) {
    if (error instanceof KubeconfigTextError) throw new KubeconfigError('not-loadable', path, error.message);
    throw new ClusterError({ kind: 'kubeconfig-unreadable', path, why: errnoText(error) });
  }
}

/**
 * The kubeconfig files of one run, read and parsed once: each context's target is chosen from it
 * (ten contexts read together parsed the files ten times, 33-60 ms of CPU each). Never changed.
 */
export interface Kubeconfig {
  files: string[];
  /** merged by kubectl's rule */
  merged: KubeConfig;
  /** the users' entries as written, for what client-node drops (overrides.ts) */
  rawUsers: Map<string, RawUser>;
  /** the clusters whose entry sets `disable-compression: true`, which client-node drops */
  uncompressed: Set<string>;
  KubeConfigClass: ClientNode['KubeConfig'];
  /**
   * One exec plugin run per plugin, server and user for the whole run, whichever context asks:
   * client-go keeps one authenticator per exec config and cluster in a process-wide cache
   * (plugin/pkg/client/auth/exec/exec.go, globalCache).
   */
  execCache: ExecCredentialCache;
}

/** The clusters whose entry says `disable-compression: true`, the first file to name a cluster deciding. */
function uncompressedClusters(parsed: Array<{ file: string; doc: unknown }>): Set<string> {
  const clusters = firstEntries<{ 'disable-compression'?: boolean }>(parsed, 'clusters');
  return new Set(clusters.filter((c) => c.body['disable-compression'] === true).map((c) => c.name));
}

/** The kubeconfig files kubectl would read, merged by its rule. */
export async function loadKubeconfig(req: Pick<KubeconfigRequest, 'kubeconfig' | 'env'>): Promise<Kubeconfig> {
  const files = kubeconfigFiles(req);
  if (files.length === 0) {
    throw new KubeconfigError('none-found');
  }
  const { KubeConfig: KubeConfigClass } = await loadClientNode();
  const read = files.map((file) => ({ file, ...readFile(KubeConfigClass, file) }));
  return {
    files,
    merged: mergeKubeconfigs(KubeConfigClass, read.map((r) => r.config)),
    rawUsers: rawUsersOf(read),
    uncompressed: uncompressedClusters(read),
    KubeConfigClass,
    execCache: new ExecCredentialCache(),
  };
}

/** Every context of the merged kubeconfig, in the order kubectl config get-contexts lists them (by name). */
export function kubeconfigContexts(kubeconfig: Kubeconfig): string[] {
  return kubeconfig.merged.contexts.map((c) => c.name).sort();
}

/** The target of one context (req.context, else the current one) and kubectl's connection flags. */
export async function loadKubeTarget(req: KubeconfigRequest): Promise<KubeTarget> {
  return chooseTarget(await loadKubeconfig(req), req);
}

/** One context's target in kubeconfig files already read: a fleet chooses each of its contexts here. */
export function chooseTarget(kubeconfig: Kubeconfig, req: KubeconfigRequest): KubeTarget {
  // Each target its own KubeConfig: its current context and overridden entries are its own.
  const config = new kubeconfig.KubeConfigClass();
  const { clusters, users, contexts, currentContext } = kubeconfig.merged;
  config.loadFromOptions({ clusters, users, contexts, currentContext });
  const contextName = req.context || config.currentContext;
  const o = req.overrides ?? {};
  if (!contextName && !o.server) throw new KubeconfigError('no-current-context');
  const context = contextName ? config.getContextObject(contextName) : { name: '', cluster: '', user: '' };
  if (!context) throw new ClusterError({ kind: 'no-context', context: contextName });
  const clusterName = o.cluster || context.cluster;
  const userName = o.user || context.user;
  const known = config.getCluster(clusterName);
  if (o.cluster && !known) throw new ClusterError({ kind: 'no-cluster', cluster: o.cluster });
  const knownUser = config.getUser(userName);
  if (o.user && !knownUser) throw new ClusterError({ kind: 'no-auth-info', user: o.user });
  const merged = overrideCluster(known ?? { name: clusterName, server: '', skipTLSVerify: false }, o);
  if (!merged.server) throw new ClusterError({ kind: 'no-server', context: contextName, cluster: clusterName });
  // A proxy from HTTPS_PROXY/NO_PROXY, as kubectl reads them, where the kubeconfig names none.
  const cluster = { ...merged, proxyUrl: merged.proxyUrl || proxyFromEnvironment(merged.server, req.env) };
  const raw = kubeconfig.rawUsers.get(userName);
  // client-go's validateAuthInfo (tools/clientcmd/validation.go) refuses a user with both, in these words.
  if (raw?.exec && raw['auth-provider']) throw new RuntimeError(`authProvider cannot be provided in combination with an exec plugin for ${userName}`); // kubectl's wording (client-go tools/clientcmd/validation.go:310)
  const extras = userExtras(raw, o);
  const baseUser = overrideUser(knownUser ?? { name: userName }, o);
  // The exec plugin and an oidc auth-provider are ours to apply (exec-credential.ts, oidc.ts); a
  // --token or token wins over them. client-node's oidc sends no token once the id-token expires.
  const user = { ...baseUser, exec: undefined, impersonateUser: undefined, ...(extras.oidc ? { authProvider: undefined } : {}) };
  const current = `${contextName || 'evtimeline-flags'}`;
  config.loadFromOptions({
    clusters: [allowPlainHttp(cluster), ...config.clusters.filter((c) => c.name !== cluster.name)],
    users: [user, ...config.users.filter((u) => u.name !== user.name)],
    contexts: [{ ...context, name: current, cluster: cluster.name, user: user.name }, ...config.contexts.filter((c) => c.name !== current)],
    currentContext: current,
  });
  const namespace = context.namespace || 'default';
  const invalid = namespaceError(namespace);
  if (invalid !== null) throw new RuntimeError(`context "${contextName}": ${invalid}`);
  const auth: TargetAuth = {
    ...extras,
    user: userName,
    description: describeCredentials(baseUser, extras, o),
    execCache: kubeconfig.execCache,
    stdinIsTTY: req.stdinIsTTY ?? false,
    env: req.env,
  };
  // client-go merges the flag over the kubeconfig only when true (clientcmd/merge.go skips zero values).
  const disableCompression = o.disableCompression === true || kubeconfig.uncompressed.has(clusterName);
  return { config, context: contextName, server: cluster.server, namespace, auth, disableCompression, verbosity: req.verbosity ?? 0, ...(req.log ? { log: req.log } : {}) };
}

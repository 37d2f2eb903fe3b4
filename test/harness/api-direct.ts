// The harness's polls read the API server without a kubectl process. A kubectl run costs about
// 130 ms of CPU on the idle 2-core machine (most of it its own start: a 57 MB Go binary and its
// discovery cache), and the harness polls hundreds of times a run while it waits for the cluster's
// clocks (pods, events, quotas): in a full run, kubectl took 322 s of the suite's 1,794 s of CPU.
// A GET on a kept-alive connection costs a few ms. What the tests compare against kubectl is
// still read by kubectl; this is only for staging and waiting.
//
// Only a kubeconfig the harness wrote is read this way: its current context's server, CA data and
// bearer token. Anything else (client certificates, exec plugins, a proxy) is for kubectl; the
// callers fall back to it when apiClient answers null.
import https from 'node:https';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { kubectlOk } from './kubectl.ts';

type Json = Record<string, any>;

/** A 404 from the API server. */
class NotFound extends Error {}

/** For a catch: a 404 (the object is gone already) is fine, anything else is thrown on. */
export function ignoreNotFound(error: unknown): void {
  if (!(error instanceof NotFound)) throw error;
}

export interface ApiClient {
  /** GET of an API path; rejects with the status and the answer's first line. */
  get(path: string): Promise<Json>;
  /** POST of an object to an API path (a create); rejects as get does. */
  post(path: string, body: Json): Promise<Json>;
  /** DELETE of an API path (an object, or a collection); rejects as get does. */
  delete(path: string): Promise<Json>;
}

// By the kubeconfig's text, not its path: a file rewritten for another server is another client.
const clients = new Map<string, ApiClient | null>();

/** The API client of a kubeconfig the harness wrote (token and CA data); null for any other kind, or no file. */
export function apiClient(kubeconfig: string): ApiClient | null {
  let text: string;
  try {
    text = readFileSync(kubeconfig, 'utf8');
  } catch {
    return null;
  }
  let client = clients.get(text);
  if (client === undefined) {
    client = clientOf(text);
    clients.set(text, client);
  }
  return client;
}

function clientOf(text: string): ApiClient | null {
  let config: Json;
  try {
    config = parse(text) as Json;
  } catch {
    return null;
  }
  const context = (config.contexts ?? []).find((c: Json) => c.name === config['current-context'])?.context;
  const cluster = (config.clusters ?? []).find((c: Json) => c.name === context?.cluster)?.cluster;
  const user = (config.users ?? []).find((u: Json) => u.name === context?.user)?.user;
  const onlyToken = user !== undefined && Object.keys(user).length === 1 && typeof user.token === 'string';
  if (cluster === undefined || !onlyToken || typeof cluster['certificate-authority-data'] !== 'string' || typeof cluster.server !== 'string' || Object.keys(cluster).some((k) => !['server', 'certificate-authority-data'].includes(k))) return null;
  const server = cluster.server as string;
  const agent = new https.Agent({ ca: Buffer.from(cluster['certificate-authority-data'] as string, 'base64').toString('utf8'), keepAlive: true, maxSockets: 4 });
  const call = async (method: string, path: string, body?: Json): Promise<Json> => {
    const { status, text } = await apiRequest({ server, agent, token: user.token as string, timeoutMs: 60_000 }, method, path, body);
    if (status >= 200 && status < 300) return JSON.parse(text) as Json;
    throw new (status === 404 ? NotFound : Error)(`${method} ${path}: ${status} ${text.split('\n')[0]?.slice(0, 300)}`);
  };
  return { get: (path) => call('GET', path), post: (path, body) => call('POST', path, body), delete: (path) => call('DELETE', path) };
}

/** An API server as a bearer token's holder reaches it, over a kept-alive agent that trusts its CA. */
export interface ApiEndpoint {
  server: string;
  agent: https.Agent;
  token: string;
  /** no answer within this long fails the request (default: none) */
  timeoutMs?: number;
}

/** One request with a JSON body (or none); resolves with the status and the answer's text, whatever the status. */
export function apiRequest(to: ApiEndpoint, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = { Authorization: `Bearer ${to.token}`, Accept: 'application/json', ...(payload === undefined ? {} : { 'Content-Type': contentType }) };
    const req = https.request(new URL(path, to.server), { method, agent: to.agent, headers, ...(to.timeoutMs === undefined ? {} : { timeout: to.timeoutMs }) }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within ${(to.timeoutMs ?? 0) / 1000} s`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** Where each resource the harness lists lives: its group version's path. */
const GROUP_VERSIONS: Record<string, string> = {
  pods: '/api/v1',
  events: '/api/v1',
  services: '/api/v1',
  endpoints: '/api/v1',
  configmaps: '/api/v1',
  resourcequotas: '/api/v1',
  persistentvolumeclaims: '/api/v1',
  serviceaccounts: '/api/v1',
  deployments: '/apis/apps/v1',
  replicasets: '/apis/apps/v1',
  statefulsets: '/apis/apps/v1',
  daemonsets: '/apis/apps/v1',
  controllerrevisions: '/apis/apps/v1',
  jobs: '/apis/batch/v1',
  cronjobs: '/apis/batch/v1',
  endpointslices: '/apis/discovery.k8s.io/v1',
  nodes: '/api/v1',
  namespaces: '/api/v1',
};

/** The resources above that belong to no namespace. */
const CLUSTER_SCOPED = new Set(['nodes', 'namespaces']);

/** kubectl's other names for them, as the tests write them. */
const ALIASES: Record<string, string> = { pod: 'pods', po: 'pods', node: 'nodes', no: 'nodes', namespace: 'namespaces', ns: 'namespaces', deploy: 'deployments', deployment: 'deployments', rs: 'replicasets', replicaset: 'replicasets', job: 'jobs', resourcequota: 'resourcequotas', quota: 'resourcequotas', event: 'events', ev: 'events', serviceaccount: 'serviceaccounts', sa: 'serviceaccounts', endpoint: 'endpoints', ep: 'endpoints', service: 'services', svc: 'services', configmap: 'configmaps', cm: 'configmaps' };

/**
 * One object as `kubectl get RESOURCE NAME [-n NS] --ignore-not-found -o json` gives it (null when
 * there is none), by a GET where it can, else by kubectl.
 */
export async function getObject(kubeconfig: string, resource: string, name: string, namespace?: string): Promise<Json | null> {
  const plural = ALIASES[resource] ?? resource;
  const groupVersion = GROUP_VERSIONS[plural];
  const client = groupVersion === undefined || CLUSTER_SCOPED.has(plural) !== (namespace === undefined) ? null : apiClient(kubeconfig);
  if (client === null) {
    const text = await kubectlOk(kubeconfig, [...(namespace === undefined ? [] : ['-n', namespace]), 'get', resource, name, '--ignore-not-found', '-o', 'json']);
    return text.trim() === '' ? null : (JSON.parse(text) as Json);
  }
  const where = namespace === undefined ? '' : `/namespaces/${encodeURIComponent(namespace)}`;
  try {
    const object = await client.get(`${groupVersion}${where}/${plural}/${encodeURIComponent(name)}`);
    delete object.metadata?.managedFields;
    return object;
  } catch (error) {
    if (error instanceof NotFound) return null;
    throw error;
  }
}

/**
 * The items of a namespaced resource, as `kubectl get RESOURCE -n NS [-l SELECTOR] -o json` gives
 * them (each item with its apiVersion and kind and without managedFields, the list read to its end
 * in pages of 500, as kubectl reads it); null when the resource or the kubeconfig is not one read here.
 */
export async function listDirect(kubeconfig: string, ns: string, name: string, selector?: string): Promise<Json[] | null> {
  const resource = ALIASES[name] ?? name;
  const groupVersion = GROUP_VERSIONS[resource];
  const client = groupVersion === undefined || CLUSTER_SCOPED.has(resource) ? null : apiClient(kubeconfig);
  if (client === null) return null;
  const items: Json[] = [];
  let token = '';
  do {
    const query = new URLSearchParams({ limit: '500', ...(selector ? { labelSelector: selector } : {}), ...(token ? { continue: token } : {}) });
    const list = await client.get(`${groupVersion}/namespaces/${encodeURIComponent(ns)}/${resource}?${query}`);
    const apiVersion = list.apiVersion as string;
    const kind = String(list.kind).replace(/List$/, '');
    for (const item of list.items ?? []) {
      // kubectl leaves managedFields out unless --show-managed-fields.
      delete item.metadata?.managedFields;
      items.push({ apiVersion, kind, ...item });
    }
    token = list.metadata?.continue ?? '';
  } while (token !== '');
  return items;
}

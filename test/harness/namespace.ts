// Namespaces for tests. Every test file makes its own (uniquely named), so files can share one
// control plane. kube-controller-manager runs the namespace controller, so a namespace can be
// deleted for real (deleteNamespace), and the serviceaccount controller, which gives each new
// namespace its `default` ServiceAccount: until it exists the ServiceAccount admission plugin
// rejects pods ("error looking up service account NS/default"), so freshNamespace waits for it,
// as anyone scripting against a real cluster must.

import { randomBytes } from 'node:crypto';
import { apiClient, getObject, ignoreNotFound, listDirect } from './api-direct.ts';
import { kubectlOk } from './kubectl.ts';
import { waitFor } from './wait.ts';

/** A DNS-1123 label: `<prefix>-<time base36>-<random hex>`, at most 63 characters. */
export function uniqueNamespaceName(prefix: string): string {
  const clean =
    prefix
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '') || 'test';
  return `${clean}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

/**
 * The label a test file's namespaces carry: the integration runner deletes them when the file ends
 * (integration-run.ts). Left behind, their pods go on running for the rest of the suite: a readiness
 * probe every second is a runc exec every second, a crash loop a container created every few
 * seconds, and a run of 48 files left dozens of them burning the CPU the later files wait on.
 */
export const FILE_LABEL = 'evtimeline.test/file';

/** The label value for a test file (its name without `.test.ts`, as a label value allows), or undefined for a path that is not one. */
export function fileLabelValue(path: string | undefined): string | undefined {
  const m = /([^/\\]+)\.test\.ts$/.exec(path ?? '');
  if (m === null) return undefined;
  return m[1]!.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 63).replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '') || undefined;
}

/** What freshNamespace's namespace lives for: a test (its context), deleted when that test ends; else the file. */
export interface Lifetime {
  after(fn: () => Promise<void>): void;
}

/**
 * Creates a uniquely named namespace, waits for its `default` ServiceAccount and returns its name.
 * Given a test's context, deletes it when that test ends (its pods stop being probed then, not when
 * the file ends); every namespace of the file is deleted when the file ends (integration-run.ts).
 */
export async function freshNamespace(kubeconfig: string, prefix: string, lifetime?: Lifetime): Promise<string> {
  // node:test runs each file in a process of its own, the file's path its script argument.
  const file = fileLabelValue(process.argv[1]);
  const name = await createNamespace(kubeconfig, uniqueNamespaceName(prefix), file === undefined ? {} : { [FILE_LABEL]: file });
  lifetime?.after(() => deleteNamespaces(kubeconfig, [name]));
  return name;
}

/** Creates the namespace (on a private control plane, where its name is free), waits for its `default` ServiceAccount. */
export async function createNamespace(kubeconfig: string, name: string, labels: Record<string, string> = {}): Promise<string> {
  const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } };
  const direct = apiClient(kubeconfig);
  if (direct === null) await kubectlOk(kubeconfig, ['create', '-f', '-'], JSON.stringify(namespace));
  else await direct.post('/api/v1/namespaces', namespace);
  await waitFor(`ServiceAccount ${name}/default`, async () => {
    const accounts = await listDirect(kubeconfig, name, 'serviceaccounts');
    if (accounts !== null) return accounts.some((a) => a.metadata?.name === 'default');
    return (await kubectlOk(kubeconfig, ['-n', name, 'get', 'serviceaccounts', '-o', 'name'])).includes('serviceaccount/default');
  });
  return name;
}

/**
 * Deletes a namespace; with wait, resolves once the namespace controller has removed everything
 * in it and the namespace itself is gone.
 */
export async function deleteNamespace(kubeconfig: string, name: string, opts: { wait?: boolean } = {}): Promise<void> {
  await kubectlOk(kubeconfig, ['delete', 'namespace', name, '--wait=false']);
  if (!opts.wait) return;
  await waitFor(`namespace ${name} to be deleted`, async () => (await getObject(kubeconfig, 'namespaces', name)) === null);
}

/**
 * Cleans up after a test or a file, without waiting: deletes the namespaces (by name, or those
 * carrying `label=value`) and then their pods. The namespace controller gets to the pods only after
 * the other kinds, seconds later on a busy cluster, and a pod goes on being probed until then; a
 * terminating namespace admits no new pod, so its controllers cannot bring them back.
 */
export async function deleteNamespaces(kubeconfig: string, which: string[] | { label: string; value: string }): Promise<void> {
  const direct = apiClient(kubeconfig);
  if (direct === null) {
    const args = Array.isArray(which) ? which : ['-l', `${which.label}=${which.value}`];
    if (args.length > 0) await kubectlOk(kubeconfig, ['delete', 'namespace', ...args, '--wait=false']);
    return;
  }
  const names = Array.isArray(which)
    ? which
    : ((await direct.get(`/api/v1/namespaces?labelSelector=${encodeURIComponent(`${which.label}=${which.value}`)}`)).items as { metadata: { name: string } }[]).map((n) => n.metadata.name);
  await Promise.all(
    names.map(async (name) => {
      await direct.delete(`/api/v1/namespaces/${name}`).catch(ignoreNotFound);
      // A second's grace, whatever the pod asked for: `sleep` as PID 1 ignores SIGTERM and would be probed for its 30 s.
      await direct.delete(`/api/v1/namespaces/${name}/pods?gracePeriodSeconds=1`).catch(ignoreNotFound);
    }),
  );
}

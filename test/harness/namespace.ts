// Namespaces for tests. Every test file makes its own (uniquely named), so files can share one
// control plane. kube-controller-manager runs the namespace controller, so a namespace can be
// deleted for real (deleteNamespace), and the serviceaccount controller, which gives each new
// namespace its `default` ServiceAccount: until it exists the ServiceAccount admission plugin
// rejects pods ("error looking up service account NS/default"), so freshNamespace waits for it,
// as anyone scripting against a real cluster must.

import { randomBytes } from 'node:crypto';
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

/** Creates a uniquely named namespace, waits for its `default` ServiceAccount and returns its name. */
export function freshNamespace(kubeconfig: string, prefix: string): Promise<string> {
  return createNamespace(kubeconfig, uniqueNamespaceName(prefix));
}

/** Creates the namespace (on a private control plane, where its name is free), waits for its `default` ServiceAccount. */
export async function createNamespace(kubeconfig: string, name: string): Promise<string> {
  await kubectlOk(kubeconfig, ['create', 'namespace', name]);
  await waitFor(`ServiceAccount ${name}/default`, async () =>
    (await kubectlOk(kubeconfig, ['-n', name, 'get', 'serviceaccounts', '-o', 'name'])).includes('serviceaccount/default'),
  );
  return name;
}

/**
 * Deletes a namespace; with wait, resolves once the namespace controller has removed everything
 * in it and the namespace itself is gone.
 */
export async function deleteNamespace(kubeconfig: string, name: string, opts: { wait?: boolean } = {}): Promise<void> {
  await kubectlOk(kubeconfig, ['delete', 'namespace', name, '--wait=false']);
  if (!opts.wait) return;
  await waitFor(`namespace ${name} to be deleted`, async () =>
    (await kubectlOk(kubeconfig, ['get', 'namespace', name, '--ignore-not-found', '-o', 'name'])).trim() === '',
  );
}

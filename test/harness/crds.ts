// CustomResourceDefinitions for tests: namespaced, one served version, any fields. The shared
// control plane outlives a test file, so a file that applies one deletes it when it is done.
import { kubectlOk } from './kubectl.ts';
import { waitFor } from './wait.ts';

/** A namespaced CRD `<plural>.<group>` serving `version`, with optional short names. */
export function crdObject(group: string, plural: string, kind: string, version = 'v1', shortNames: string[] = []) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List`, shortNames },
      versions: [{ name: version, served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  };
}

/**
 * Deletes CRDs (names `<plural>.<group>`) and waits until they are gone, their objects with them.
 * The apiextensions finalizer lists a CRD's objects through the CRD's storage, which the API server
 * makes on first use: a storage made by that very list answers "storage is (re)initializing" until
 * its watch cache is filled, and the finalizer retries with a back-off that doubles each time (on a
 * loaded machine past two minutes). So each CRD's objects are listed first, by kubectl, which
 * waits out the server's 429 as told (Retry-After): the finalizer then finds a storage ready.
 */
export async function deleteCrds(kubeconfig: string, names: string[]): Promise<void> {
  const present = (await kubectlOk(kubeconfig, ['get', 'crd', ...names, '--ignore-not-found', '-o', 'name'])).split('\n').filter((l) => l !== '');
  for (const name of present.map((line) => line.replace(/^[^/]*\//, ''))) {
    await waitFor(`the objects of CRD ${name} to be listed`, () => kubectlOk(kubeconfig, ['get', name, '-A', '-o', 'name']).then(() => true), { timeoutMs: 90_000, everyMs: 1000 });
  }
  try {
    await kubectlOk(kubeconfig, ['delete', 'crd', ...names, '--ignore-not-found', '--wait=true', '--timeout=100s']);
  } catch (error) {
    const left = await kubectlOk(kubeconfig, ['get', 'crd', ...names, '--ignore-not-found', '-o', 'jsonpath={range .items[*]}{.metadata.name} {.metadata.finalizers} {.status.conditions}{"\\n"}{end}']).catch((e: Error) => e.message);
    throw new Error(`${(error as Error).message}; still there: ${left}`);
  }
}

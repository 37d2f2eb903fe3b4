// CustomResourceDefinitions for tests: namespaced, one served version, any fields. The shared
// control plane outlives a test file, so a file that applies one deletes it when it is done.

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

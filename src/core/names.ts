// The port shell completion asks names through: the live cluster's namespaces and events, the
// kubeconfig's contexts, clusters and users. The live adapter is src/kube/completion-names.ts; unit
// tests hand completion an in-memory double. A lookup that fails answers nothing, never an error.

export interface NameLookups {
  namespaces(): Promise<string[]>;
  /** event names in `namespace`; null: the context's namespace */
  events(namespace: string | null): Promise<string[]>;
  contexts(): Promise<string[]>;
  /** kubeconfig cluster and user names, for --cluster and --user */
  clusters(): Promise<string[]>;
  users(): Promise<string[]>;
}


// What every read verb reads from: the live cluster (src/kube) or a saved file (src/io).
// Both hand back raw core/v1-shaped event JSON; normaliseEvent settles the rest.

export interface SourceInfo {
  /** 'cluster' for a live API server, 'file' for --from */
  kind: 'cluster' | 'file';
  /** kubeconfig context, or the context a capture was taken from */
  context: string;
  server: string;
  /** null means all namespaces */
  namespace: string | null;
  /** for files: capture, list, record or stable-table; '' for a live cluster */
  format: string;
}

export interface EventSource {
  readonly info: SourceInfo;
  /** Every event in scope through core/v1 (which already includes events written through events.k8s.io/v1). */
  listEvents(): Promise<unknown[]>;
  /** The events.k8s.io/v1 view of the same events (capture's both-apis report); null where the source has no such view. */
  listNewApiEvents(): Promise<unknown[] | null>;
}

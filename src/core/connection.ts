// Which cluster a command talks to, as kubectl's flags say it: values only (src/options parses the
// flags, src/kube applies them over the kubeconfig with client-go's precedence, kube/overrides.ts).

/** kubectl's global flags that change how the API server is reached (empty: not given). */
export interface ConnectionOverrides {
  server?: string;
  token?: string;
  user?: string;
  cluster?: string;
  certificateAuthority?: string;
  clientCertificate?: string;
  clientKey?: string;
  insecureSkipTlsVerify?: boolean;
  tlsServerName?: string;
  /** --disable-compression: answers not asked for gzip */
  disableCompression?: boolean;
  as?: string;
  asGroups?: string[];
  asUid?: string;
}

/**
 * The cluster the command being completed will talk to: --kubeconfig, --context and kubectl's
 * connection flags typed so far (--server, --token, --user, --as, ...), as kubectl's own completion
 * of namespaces reads them (its completion functions use the command's client config).
 */
export interface NameLookupTarget {
  kubeconfig?: string;
  context?: string;
  overrides?: ConnectionOverrides;
}

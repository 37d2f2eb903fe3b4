// Which API server an input came from: the URL in the kubeconfig that read it. The same cluster
// written two ways (`HTTPS://Host:443/` and `https://host`) is one server; two URLs are two clusters
// as far as the plugin can tell (a proxy in front of a cluster is another URL for it).

/** scheme://host:port/path in one spelling; the text itself when it is not a URL. */
export function canonical(server: string): string {
  try {
    const url = new URL(server);
    const port = url.port || (url.protocol === 'http:' ? '80' : '443');
    return `${url.protocol}//${url.hostname.toLowerCase()}:${port}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return server;
  }
}

/** Whether two server URLs name the same API server. */
export function sameServer(a: string, b: string): boolean {
  return canonical(a) === canonical(b);
}

/** The distinct servers of a list of URLs, in first-seen order, '' (not said) left out. */
export function distinctServers(servers: readonly string[]): string[] {
  const seen: string[] = [];
  for (const server of servers) if (server !== '' && !seen.some((s) => sameServer(s, server))) seen.push(server);
  return seen;
}

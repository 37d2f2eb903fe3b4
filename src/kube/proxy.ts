// Which proxy kubectl would use: the kubeconfig's proxy-url when the cluster sets one, else the
// environment, read as Go's net/http ProxyFromEnvironment does (golang.org/x/net/http/httpproxy):
// HTTPS_PROXY (or https_proxy) for an https server, HTTP_PROXY for http; NO_PROXY lists hosts,
// domains (`.example.com` or `example.com`, subdomains included), IPs and CIDRs, optionally with a
// port, or `*`; and localhost and loopback addresses never go through a proxy from the environment.

// node:net on first use rather than imported: it is most of what a start-up that reaches no
// cluster (--version, --help, --from) would otherwise load and never use.
const isIP = (input: string): number => process.getBuiltinModule('node:net').isIP(input);

function pick(env: Record<string, string | undefined>, name: string): string {
  return env[name] || env[name.toLowerCase()] || '';
}

function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

function matchesNoProxy(host: string, port: string, noProxy: string): boolean {
  for (const raw of noProxy.split(',')) {
    let entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    if (entry.includes('/')) {
      const [net, bits] = entry.split('/');
      const family = isIP(net ?? '');
      if (family !== 0 && isIP(host) === family) {
        const list = new (process.getBuiltinModule('node:net').BlockList)();
        list.addSubnet(net as string, Number(bits), family === 4 ? 'ipv4' : 'ipv6');
        if (list.check(host, family === 4 ? 'ipv4' : 'ipv6')) return true;
      }
      continue;
    }
    let entryPort = '';
    const colon = entry.lastIndexOf(':');
    if (colon > 0 && !entry.endsWith(']') && isIP(entry) === 0) {
      entryPort = entry.slice(colon + 1);
      entry = entry.slice(0, colon);
    }
    entry = entry.replace(/^\[|\]$/g, '');
    if (entryPort !== '' && entryPort !== port) continue;
    if (isIP(entry) !== 0) {
      if (entry === host) return true;
      continue;
    }
    const domain = entry.replace(/^\*?\./, '');
    if (host === domain || host.endsWith(`.${domain}`)) return true;
  }
  return false;
}

/** The proxy URL from the environment for requests to `server`, or undefined for a direct connection. */
export function proxyFromEnvironment(server: string, env: Record<string, string | undefined>): string | undefined {
  const url = new URL(server);
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const proxy = pick(env, url.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY');
  if (proxy === '' || isLoopback(host)) return undefined;
  if (matchesNoProxy(host, port, pick(env, 'NO_PROXY'))) return undefined;
  // Go reads a proxy without a scheme as http://.
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(proxy) ? proxy : `http://${proxy}`;
}

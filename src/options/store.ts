// --from victorialogs+http(s)://HOST:PORT[/prefix][?query=LogsQL] and its companions --from-ca,
// --from-client-cert, --from-client-key and --from-header: raw strings to a typed store once.
// The TLS and header flags are the OTLP export's (otlp-options.ts), named for --from, and like
// them independent of the kubeconfig: a store is not the cluster.
import { UsageError } from '../errors.ts';
import { parseOtlpHeaders } from './otlp.ts';
import type { RawOptions } from './raw.ts';

const STORE_SCHEME = 'victorialogs+';

export interface StoreAddress {
  /** http(s)://HOST:PORT[/prefix] */
  base: URL;
  /** the LogsQL filter of ?query= ('' for every row) */
  query: string;
  headers: Record<string, string>;
  caFile?: string;
  clientCert?: { certFile: string; keyFile: string };
  /** ?page-rows=N: rows per time window (src/stores/victorialogs.ts storedRows); default there */
  pageRows?: number;
}

/**
 * The most rows ?page-rows= takes. Not a safe size: a window streams at the reader's pace (about
 * 70,000 rows a second here), and one running past the server's -search.maxQueryDuration (30 s by
 * default) is cut by it, which the reader says in one line (exit 1), never a partial timeline. A
 * server whose limit was raised may take big windows, not unbounded ones.
 */
const MAX_PAGE_ROWS = 10_000_000;

const STORE_FLAGS = ['fromCa', 'fromClientCert', 'fromClientKey', 'fromHeader'] as const;
const FLAG_NAMES: Record<(typeof STORE_FLAGS)[number], string> = {
  fromCa: '--from-ca',
  fromClientCert: '--from-client-cert',
  fromClientKey: '--from-client-key',
  fromHeader: '--from-header',
};

/** Whether --from names a store rather than a file. */
function isStoreFrom(from: string): boolean {
  return from.toLowerCase().startsWith(STORE_SCHEME);
}

function str(raw: RawOptions, key: string): string | undefined {
  const value = raw[key];
  return typeof value === 'string' ? value : undefined;
}

/** The store --from names, or null for a file; the --from-* flags need a store. */
export function parseStoreFrom(from: string | null, raw: RawOptions): StoreAddress | null {
  if (from === null || !isStoreFrom(from)) {
    const stray = STORE_FLAGS.find((key) => raw[key] !== undefined);
    if (stray !== undefined) throw new UsageError(`${FLAG_NAMES[stray]} needs --from victorialogs+https://HOST:PORT`);
    return null;
  }
  const want = 'want victorialogs+http://HOST:PORT or victorialogs+https://HOST:PORT, optionally ?query=LogsQL';
  let url: URL;
  try {
    url = new URL(from.slice(STORE_SCHEME.length));
  } catch {
    throw new UsageError(`--from ${JSON.stringify(from)}: ${want}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--from ${JSON.stringify(from)}: ${want}`);
  if (url.username !== '' || url.password !== '') throw new UsageError('--from: put credentials in --from-header Authorization=..., not in the URL');
  const other = [...url.searchParams.keys()].find((key) => key !== 'query' && key !== 'page-rows');
  if (other !== undefined) throw new UsageError(`--from: unknown parameter ${JSON.stringify(other)} in the store's URL (only ?query=LogsQL and &page-rows=N)`);
  const query = url.searchParams.get('query') ?? '';
  const pageRows = pageRowsOf(url.searchParams.get('page-rows'));
  const base = new URL(url.href);
  base.search = '';
  base.hash = '';
  const caFile = str(raw, 'fromCa');
  const certFile = str(raw, 'fromClientCert');
  const keyFile = str(raw, 'fromClientKey');
  if ((caFile !== undefined || certFile !== undefined || keyFile !== undefined) && base.protocol !== 'https:') {
    throw new UsageError('--from-ca, --from-client-cert and --from-client-key apply to a victorialogs+https store');
  }
  if ((certFile === undefined) !== (keyFile === undefined)) throw new UsageError(certFile === undefined ? '--from-client-key needs --from-client-cert' : '--from-client-cert needs --from-client-key');
  return {
    base,
    query,
    headers: parseOtlpHeaders(raw.fromHeader, '--from-header'),
    ...(caFile !== undefined ? { caFile } : {}),
    ...(certFile !== undefined && keyFile !== undefined ? { clientCert: { certFile, keyFile } } : {}),
    ...(pageRows !== null ? { pageRows } : {}),
  };
}

/** ?page-rows=N as a whole number of rows from 1 to MAX_PAGE_ROWS; null when not given. */
function pageRowsOf(text: string | null): number | null {
  if (text === null) return null;
  const rows = /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
  if (!(rows >= 1 && rows <= MAX_PAGE_ROWS)) throw new UsageError(`--from: page-rows=${JSON.stringify(text)}: want a whole number of rows from 1 to ${MAX_PAGE_ROWS}`);
  return rows;
}

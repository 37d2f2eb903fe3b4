// An answer the API server compressed. kubectl asks for gzip on every request: Go's http.Transport
// adds `Accept-Encoding: gzip` unless client-go's DisableCompression is set (rest/config.go:102,
// from the kubeconfig's `disable-compression` or kubectl's --disable-compression), and the
// kube-apiserver compresses a body larger than 128 KiB at level 1 (APIResponseCompression, on since
// 1.16: apiserver pkg/endpoints/handlers/responsewriters/writers.go:152-159). A list page of 500
// events is one such body. What that saves us is pieces, not bytes: the server writes either body
// through net/http's 2 KB chunking buffer (server.go:341), so a body several times smaller comes in
// as many times fewer chunks, TLS records and 'data' callbacks, and inflating it costs less than
// they did (README, Benchmarks).

/** Where the inflated bytes go: the answer's reader (list-items.ts, or the whole-body one). */
interface Sink {
  push(chunk: Buffer): void;
}

/** Why a compressed answer could not be read; http.ts words each as a ClusterError. */
export type GzipFailure = { kind: 'too-large' } | { kind: 'broken'; why: string };

/**
 * The inflated answer is handed on in pieces this size: one string of a whole page would go to V8's
 * large-object space (list-items.ts), as would a 64 KiB piece holding one character past Latin-1 (a
 * two-byte string of 128 KiB).
 */
const PIECE_BYTES = 32 * 1024;

/**
 * Collects a gzip body as it arrives and inflates it in one call at its end. One call per page,
 * not a zlib stream: the stream inflates on the thread pool, a round trip per chunk written.
 */
export class GzipAnswer {
  private readonly chunks: Buffer[] = [];

  constructor(
    private readonly sink: Sink,
    /** the most inflated bytes read: past this, `too-large` */
    private readonly maxBytes: number,
  ) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  /** Inflates what came and hands it on; a failure to inflate is returned, what the sink throws is thrown. */
  end(): GzipFailure | null {
    let inflated: Buffer;
    try {
      inflated = process.getBuiltinModule('node:zlib').gunzipSync(Buffer.concat(this.chunks), { maxOutputLength: this.maxBytes });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ERR_BUFFER_TOO_LARGE') return { kind: 'too-large' };
      // zlib's words: "unexpected end of file" (a body that stops mid-stream), "incorrect header check" (not gzip).
      return { kind: 'broken', why: error instanceof Error ? error.message : String(error) };
    }
    this.chunks.length = 0;
    for (let at = 0; at < inflated.length; at += PIECE_BYTES) this.sink.push(inflated.subarray(at, at + PIECE_BYTES));
    return null;
  }
}

/** Whether the answer's Content-Encoding is gzip (Go's transport compares it case-insensitively; anything else is read as it is). */
export function isGzip(contentEncoding: string | undefined): boolean {
  return contentEncoding !== undefined && contentEncoding.trim().toLowerCase() === 'gzip';
}


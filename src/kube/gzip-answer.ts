// An answer the API server compressed. kubectl asks for gzip on every request: Go's http.Transport
// adds `Accept-Encoding: gzip` unless client-go's DisableCompression is set (rest/config.go:102,
// from the kubeconfig's `disable-compression` or kubectl's --disable-compression), and the
// kube-apiserver compresses a body larger than 128 KiB at level 1 (APIResponseCompression, on since
// 1.16: apiserver pkg/endpoints/handlers/responsewriters/writers.go:152-159). A list page of 500
// events is one such body. What that saves us is pieces, not bytes: the server writes either body
// through net/http's 2 KB chunking buffer (server.go:341), so a body several times smaller comes in
// as many times fewer chunks, TLS records and 'data' callbacks, and inflating it costs less than
// they did (README, Benchmarks).
import { finished } from 'node:stream';

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
 * Inflates a gzip body as it arrives, handing each piece on as it comes out. The compressed chunks
 * (some 2 KB each) are given to zlib 32 KiB at a time: zlib's stream inflates on the thread pool, a
 * round trip per write, which cost more than the chunks saved when fed one by one (20,000 events:
 * 431 ms of CPU for the read against 366 plain, 321 batched). Inflating each page in one
 * gunzipSync at its end cost about the same CPU but held the whole inflated page: 2-4 MiB more peak.
 */
export class GzipAnswer {
  private readonly zlib = process.getBuiltinModule('node:zlib').createGunzip({ chunkSize: PIECE_BYTES });
  private readonly done: Promise<Error | null | undefined>;
  private held: Buffer[] = [];
  private heldBytes = 0;
  private inflated = 0;
  /** what stopped the inflating early: the limit, or what the sink threw (passed on as it is) */
  private stopped: { failure: GzipFailure } | { thrown: unknown } | undefined;

  constructor(
    private readonly sink: Sink,
    /** the most inflated bytes read: past this, `too-large` */
    private readonly maxBytes: number,
  ) {
    this.zlib.on('data', (piece: Buffer) => this.pass(piece));
    this.done = new Promise((resolve) => finished(this.zlib, resolve));
  }

  push(chunk: Buffer): void {
    this.held.push(chunk);
    this.heldBytes += chunk.length;
    if (this.heldBytes >= PIECE_BYTES) this.flush();
  }

  /** Once the body has ended: inflates what is left; a failure to inflate is returned, what the sink throws is thrown. */
  async end(): Promise<GzipFailure | null> {
    this.flush();
    this.zlib.end();
    const error = await this.done;
    if (this.stopped !== undefined) {
      if ('thrown' in this.stopped) throw this.stopped.thrown;
      return this.stopped.failure;
    }
    // zlib's words: "unexpected end of file" (a body that stops mid-stream), "incorrect header check" (not gzip).
    return error ? { kind: 'broken', why: error.message } : null;
  }

  private flush(): void {
    if (this.heldBytes === 0 || this.stopped !== undefined) return;
    this.zlib.write(this.held.length === 1 ? this.held[0] : Buffer.concat(this.held, this.heldBytes));
    this.held = [];
    this.heldBytes = 0;
  }

  private pass(piece: Buffer): void {
    if (this.stopped !== undefined) return;
    this.inflated += piece.length;
    try {
      if (this.inflated > this.maxBytes) this.stopped = { failure: { kind: 'too-large' } };
      else this.sink.push(piece);
    } catch (thrown) {
      this.stopped = { thrown };
    }
    if (this.stopped !== undefined) this.zlib.destroy();
  }
}

/** Whether the answer's Content-Encoding is gzip (Go's transport compares it case-insensitively; anything else is read as it is). */
export function isGzip(contentEncoding: string | undefined): boolean {
  return contentEncoding !== undefined && contentEncoding.trim().toLowerCase() === 'gzip';
}


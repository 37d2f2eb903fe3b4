// record --otlp: the shipping beside a recorder (src/otlp/record-ship.ts), started once the
// record is open and stopped after the recorder, with one line saying what was shipped.
import type { Deps } from '../deps.ts';
import { shipNoticeText } from '../render/adapter-notices.ts';
import { escapeTerminal } from '../render/escape.ts';
import { shippedSummary } from '../render/otlp-status.ts';
import { openEndpoint } from '../otlp/http.ts';
import { RecordShipper } from '../otlp/record-ship.ts';
import type { OtlpOptions } from '../options/otlp.ts';

/** How long a stopping recorder keeps trying to ship what is left before leaving it to the next run. */
const SHIP_GRACE_MS = 15_000;

export interface Shipping {
  /** the recorder appended lines */
  wake(): void;
  /** aborted when shipping fails for good (a 4xx, a TLS error): the recorder stops with that error */
  readonly failed: AbortSignal;
  /** ships what is left (for up to SHIP_GRACE_MS), writes the summary; throws the failure if there was one */
  finish(): Promise<void>;
}

export async function startShipping(file: string, otlp: OtlpOptions, deps: Deps, say: (text: string) => void): Promise<Shipping> {
  const endpoint = await openEndpoint(otlp);
  // While recording, a collector that is down is waited for, however long: the record keeps growing
  // and is shipped when it is back.
  const retry = { ...otlp.retry, maxAttempts: Number.POSITIVE_INFINITY };
  const failure = new AbortController();
  let error: Error | undefined;
  const shipper = await RecordShipper.open(
    { path: file, endpoint, encoding: otlp.encoding, batchSize: otlp.batchSize, retry, notice: (notice) => say(shipNoticeText(notice)), now: deps.now },
    (e) => {
      error = e;
      failure.abort();
    },
  );
  shipper.start();
  return {
    wake: () => shipper.wake(),
    failed: failure.signal,
    finish: async () => {
      const result = await shipper.stop(SHIP_GRACE_MS);
      if (error) throw error;
      deps.stderr.write(`${shippedSummary(escapeTerminal(otlp.url.href), result.totals, result.unconfirmed)}\n`);
    },
  };
}

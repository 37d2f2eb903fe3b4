// Builds the test OpenTelemetry Collector (test/otelcol, a Go module pinned to one collector
// release: the OTLP receiver and the contrib file exporter) into the cache folder the control
// plane uses, keyed by a hash of its go.mod, go.sum, *.go sources, the link flags and the Go
// version, so it is rebuilt only when one of them changes:
//
//   ${XDG_CACHE_HOME:-~/.cache}/kubectl-evtimeline/otelcol-<16 hex>/otelcol
//
// Usable as a script (`node test/harness/build-otelcol.mjs` prints the binary path on stdout;
// progress and timings go to stderr) and as a module: `const binary = await ensureOtelcol();`.
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureGoBinary } from './build-controlplane.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const otelcolSourceDir = resolve(here, '..', 'otelcol');

function log(msg) {
  process.stderr.write(`otelcol: ${msg}\n`);
}

/**
 * Returns the path of the collector binary for the current pins, building it first when the
 * cache has none (minutes on a cold Go cache).
 * @returns {Promise<string>}
 */
export async function ensureOtelcol() {
  try {
    return await ensureGoBinary({ name: 'otelcol', sourceDir: otelcolSourceDir, ldflags: '-s -w', log });
  } catch (err) {
    throw new Error(`the OTLP tests build an OpenTelemetry Collector from source: ${err instanceof Error ? err.message : err}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  ensureOtelcol().then(
    (bin) => process.stdout.write(`${bin}\n`),
    (err) => {
      process.stderr.write(`otelcol: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}

// Builds the test OpenTelemetry Collectors into the cache folder the control plane uses, keyed by a
// hash of each Go module's go.mod, go.sum, *.go sources, the link flags and the Go version, so each
// is rebuilt only when one of them changes:
//
//   ${XDG_CACHE_HOME:-~/.cache}/kubectl-evtimeline/otelcol-<16 hex>/otelcol
//       test/otelcol: collector v0.165.0, the OTLP receiver and the contrib file exporter
//   ${XDG_CACHE_HOME:-~/.cache}/kubectl-evtimeline/otelcol-k8s-<16 hex>/otelcol-k8s
//       test/otelcol-k8s: v0.111.0 throughout (the only release of the contrib k8s_events
//       receiver the module proxy serves), plus the k8s_events and k8sobjects receivers
//
// Usable as a script (`node test/harness/build-otelcol.mjs [otelcol-k8s]` prints the binary path
// on stdout; progress and timings go to stderr) and as a module: `await ensureOtelcol()`.
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureGoBinary } from './build-controlplane.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const otelcolSourceDir = resolve(here, '..', 'otelcol');

/** The collectors there are: their Go module folders are test/<name>. */
export const COLLECTORS = ['otelcol', 'otelcol-k8s'];

function log(msg) {
  process.stderr.write(`otelcol: ${msg}\n`);
}

/**
 * Returns the path of a collector binary for the current pins, building it first when the cache
 * has none (minutes on a cold Go cache).
 * @param {'otelcol' | 'otelcol-k8s'} [name]
 * @returns {Promise<string>}
 */
export async function ensureOtelcol(name = 'otelcol') {
  if (!COLLECTORS.includes(name)) throw new Error(`no collector ${name}: want one of ${COLLECTORS.join(', ')}`);
  try {
    return await ensureGoBinary({ name, sourceDir: resolve(here, '..', name), ldflags: '-s -w', log });
  } catch (err) {
    throw new Error(`the OTLP tests build an OpenTelemetry Collector from source: ${err instanceof Error ? err.message : err}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  ensureOtelcol(process.argv[2]).then(
    (bin) => process.stdout.write(`${bin}\n`),
    (err) => {
      process.stderr.write(`otelcol: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}

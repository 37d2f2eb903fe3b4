// Builds VictoriaLogs (github.com/VictoriaMetrics/VictoriaLogs, Apache-2.0) for the store tests
// from the Go module proxy: the app/victoria-logs main package at the release test/victorialogs/
// go.mod pins, CGO off (its one cgo dependency, gozstd, has a pure-Go fallback), cached like the
// control plane and keyed by that go.mod and go.sum, so each release is built once:
//
//   ${XDG_CACHE_HOME:-~/.cache}/kubectl-evtimeline/victoria-logs-<16 hex>/victoria-logs
//
// The same binary is a single node and, with -storageNode, the select/insert front of a cluster.
// Usable as a script (`node test/harness/build-victorialogs.mjs` prints the binary path on
// stdout) and as a module: `await ensureVictoriaLogs()`.
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureGoBinary } from './build-controlplane.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const victoriaLogsSourceDir = resolve(here, '..', 'victorialogs');

function log(msg) {
  process.stderr.write(`victoria-logs: ${msg}\n`);
}

/** @returns {Promise<string>} the path of the victoria-logs binary, built first when not cached */
export async function ensureVictoriaLogs() {
  try {
    return await ensureGoBinary({
      name: 'victoria-logs',
      sourceDir: victoriaLogsSourceDir,
      pkg: 'github.com/VictoriaMetrics/VictoriaLogs/app/victoria-logs',
      env: { CGO_ENABLED: '0' },
      ldflags: '-s -w',
      log,
    });
  } catch (err) {
    throw new Error(`the store tests build VictoriaLogs from source: ${err instanceof Error ? err.message : err}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  ensureVictoriaLogs().then(
    (bin) => process.stdout.write(`${bin}\n`),
    (err) => {
      process.stderr.write(`victoria-logs: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}

// kubectl as the harness runs it to stage things (not as the plugin's user does: see plugin.ts).
import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ensureControlPlane } from './build-controlplane.mjs';

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, name);
    try {
      if (statSync(p).isFile()) return p;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

/** kubectl on PATH; else the control plane's own (`<binary> kubectl`). */
export async function kubectlCommand(): Promise<[string, string[]]> {
  const onPathKubectl = onPath('kubectl');
  if (onPathKubectl) return [onPathKubectl, []];
  const binary = process.env.EVTIMELINE_TEST_CONTROLPLANE_BINARY || (await ensureControlPlane());
  return [binary, ['kubectl']];
}

/** Runs kubectl against the given kubeconfig; resolves with stdout, rejects with stderr. */
export async function kubectlOk(kubeconfig: string, args: string[], input?: string): Promise<string> {
  const [cmd, pre] = await kubectlCommand();
  const all = [...pre, `--kubeconfig=${kubeconfig}`, ...args];
  return new Promise((resolve, reject) => {
    const child = execFile(cmd, all, { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`kubectl ${args.join(' ')} failed: ${stderr.trim() || err.message}`));
      else resolve(stdout);
    });
    // A kubectl that exits before reading its stdin closes the pipe: its exit code and stderr say why, not EPIPE.
    child.stdin?.on('error', () => {});
    child.stdin?.end(input ?? '');
  });
}

/** `kubectl ... -o json`, parsed. */
export async function kubectlJSON<T = unknown>(kubeconfig: string, args: string[]): Promise<T> {
  return JSON.parse(await kubectlOk(kubeconfig, [...args, '-o', 'json'])) as T;
}

/** `kubectl apply -f -` of the given objects. */
export async function applyObjects(kubeconfig: string, objects: unknown[]): Promise<void> {
  await kubectlOk(kubeconfig, ['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
}

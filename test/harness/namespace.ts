// Unique namespaces for tests. There is no namespace controller in the test control plane (no
// kube-controller-manager), so namespaces are never deleted: every test creates its own.

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { delimiter, join } from 'node:path';
import { statSync } from 'node:fs';
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
async function kubectlCommand(): Promise<[string, string[]]> {
  const onPathKubectl = onPath('kubectl');
  if (onPathKubectl) return [onPathKubectl, []];
  const binary = process.env.EVTIMELINE_TEST_CONTROLPLANE_BINARY || (await ensureControlPlane());
  return [binary, ['kubectl']];
}

/** A DNS-1123 label: `<prefix>-<time base36>-<random hex>`, at most 63 characters. */
export function uniqueNamespaceName(prefix: string): string {
  const clean =
    prefix
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '') || 'test';
  return `${clean}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

/** Creates a uniquely named namespace and returns its name. */
export async function freshNamespace(kubeconfig: string, prefix: string): Promise<string> {
  const name = uniqueNamespaceName(prefix);
  const [cmd, pre] = await kubectlCommand();
  const args = [...pre, `--kubeconfig=${kubeconfig}`, 'create', 'namespace', name];
  await new Promise<void>((resolve, reject) => {
    execFile(cmd, args, { timeout: 30_000 }, (err, _stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')} failed: ${stderr.trim() || err.message}`));
      else resolve();
    });
  });
  return name;
}

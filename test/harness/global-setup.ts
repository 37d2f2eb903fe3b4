// node --test --test-global-setup: ONE control plane for the whole integration run, and ONE real
// node on it (test/harness/kubelet-node.ts). node:test runs each test file in its own process;
// those processes inherit the environment this module sets, so every sharedControlPlane() and
// sharedRealNode() call reuses them (controlPlaneFromEnv, realNodeFromEnv) instead of starting
// their own per file. A control plane given from outside (EVTIMELINE_TEST_KUBECONFIG, e.g. from
// `npm run cluster`) is used as it is and never stopped, with its real node
// (EVTIMELINE_TEST_REAL_NODE) when it has one. Files that need special server flags still start
// their own with startControlPlane().
//
// A machine that cannot run a real node (no root, cgroups, overlayfs, runc or busybox-static)
// stops the run here with one line naming what is missing, before anything is built.
// node:test runs globalTeardown whether tests failed or not; if the runner itself is killed, the
// node and the control plane see their stdin pipe close and tear themselves down.
import { controlPlaneEnv, startControlPlane, type ControlPlane } from './controlplane.ts';
import { missingFor } from '../../scripts/prerequisites.mjs';
import { realNodeEnv, startRealNode, type RealNode } from './kubelet-node.ts';

let cp: ControlPlane | undefined;
let node: RealNode | undefined;

export async function globalSetup(): Promise<void> {
  // Go and openssl (builds, certificates), and for a run that starts its own cluster what the real
  // node needs (scripts/prerequisites.mjs): one line each, before anything is built.
  const missing = missingFor(process.env.EVTIMELINE_TEST_KUBECONFIG ? ['integration'] : ['integration', 'real-node']);
  if (missing.length > 0) {
    process.stderr.write(`${missing.join('\n')}\n`);
    process.exit(1);
  }
  if (process.env.EVTIMELINE_TEST_KUBECONFIG) return;
  cp = await startControlPlane();
  Object.assign(process.env, controlPlaneEnv(cp));
  try {
    node = await startRealNode(cp);
  } catch (err) {
    await cp.stop();
    throw err;
  }
  Object.assign(process.env, realNodeEnv(node));
  process.stderr.write(
    `integration: one control plane for the run, ready in ${cp.startupSeconds.toFixed(1)} s (${cp.dir}); ` +
      `real node ${node.name} (kubelet ${node.kubeletVersion}, containerd ${node.containerdVersion}) ready in ${node.startupSeconds.toFixed(1)} s\n`,
  );
}

export async function globalTeardown(): Promise<void> {
  await node?.stop();
  await cp?.stop();
}

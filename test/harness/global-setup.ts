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
import { missingForRealNode } from './node-prerequisites.mjs';

let cp: ControlPlane | undefined;
let node: RealNode | undefined;

export async function globalSetup(): Promise<void> {
  // Go (the control plane, collectors) and openssl (certificates): one line each, before any build.
  const missing = missingFor(['integration']);
  if (missing.length > 0) throw new Error(missing.join('\n'));
  if (process.env.EVTIMELINE_TEST_KUBECONFIG) return;
  const missing = missingForRealNode();
  if (missing) {
    process.stderr.write(`${missing}\n`);
    process.exit(1);
  }
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

// node --test --test-global-setup: ONE control plane for the whole integration run. node:test
// runs each test file in its own process; those processes inherit the environment this module
// sets, so every sharedControlPlane() call reuses this control plane (controlPlaneFromEnv)
// instead of starting one per file. A control plane given from outside
// (EVTIMELINE_TEST_KUBECONFIG, e.g. from `npm run cluster`) is used as it is and never stopped.
// Files that need special server flags still start their own with startControlPlane().
import { controlPlaneEnv, startControlPlane, type ControlPlane } from './controlplane.ts';

let cp: ControlPlane | undefined;

export async function globalSetup(): Promise<void> {
  if (process.env.EVTIMELINE_TEST_KUBECONFIG) return;
  cp = await startControlPlane();
  Object.assign(process.env, controlPlaneEnv(cp));
  process.stderr.write(`integration: one control plane for the run, ready in ${cp.startupSeconds.toFixed(1)} s (${cp.dir})\n`);
}

export async function globalTeardown(): Promise<void> {
  await cp?.stop();
}

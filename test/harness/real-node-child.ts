// For the hygiene test's SIGKILL case (test/integration/kubelet-node-hygiene.test.ts): starts a
// real node named argv[2] on the control plane of EVTIMELINE_TEST_KUBECONFIG, prints its ready line
// as JSON and waits to be killed. The test SIGKILLs this process; the node must go by itself.
import { controlPlaneFromEnv } from './controlplane.ts';
import { startRealNode } from './kubelet-node.ts';

const cp = await controlPlaneFromEnv();
if (!cp) throw new Error('real-node-child needs EVTIMELINE_TEST_KUBECONFIG');
const { owned: _owned, stop: _stop, ...info } = await startRealNode(cp, { name: process.argv[2] ?? 'node-child' });
process.stdout.write(`${JSON.stringify(info)}\n`);
setInterval(() => {}, 1 << 30);

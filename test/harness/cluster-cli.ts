// `npm run cluster [-- --event-ttl 5m --etcd-compaction-interval 1m --kubeconfig-out PATH]`
//
// Starts the test control plane in the foreground for a person: prints `export KUBECONFIG=...`
// and how long start-up took, then stays up until Ctrl-C (or SIGTERM) and stops cleanly.

import { parseArgs } from 'node:util';
import { startControlPlane, type ControlPlaneOptions } from './controlplane.ts';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      'event-ttl': { type: 'string' },
      'etcd-compaction-interval': { type: 'string' },
      'kubeconfig-out': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(
      'usage: npm run cluster [-- --event-ttl 1h] [--etcd-compaction-interval 5m] [--kubeconfig-out PATH]\n',
    );
    return 0;
  }
  const opts: ControlPlaneOptions = {};
  if (values['event-ttl'] !== undefined) opts.eventTTL = values['event-ttl'];
  if (values['etcd-compaction-interval'] !== undefined) opts.compactionInterval = values['etcd-compaction-interval'];
  if (values['kubeconfig-out'] !== undefined) opts.kubeconfigOut = values['kubeconfig-out'];

  const t0 = performance.now();
  process.stderr.write('starting the test control plane (etcd + kube-apiserver + kube-scheduler) ...\n');
  const cp = await startControlPlane(opts);
  const total = (performance.now() - t0) / 1000;

  process.stdout.write(
    [
      `ready: Kubernetes ${cp.kubernetesVersion}, etcd ${cp.etcdVersion}, server ${cp.server}`,
      `start-up took ${cp.startupSeconds.toFixed(1)} s (${total.toFixed(1)} s including the build check)`,
      `logs: ${cp.dir}`,
      '',
      `export KUBECONFIG=${cp.kubeconfig}`,
      '',
      'As user viewer (no RBAC grants until you bind a role, e.g. kubectl create rolebinding v --clusterrole=view --user=viewer -n NS):',
      `export KUBECONFIG=${cp.viewerKubeconfig}`,
      '',
      'To make the integration tests reuse this control plane instead of starting their own:',
      `export EVTIMELINE_TEST_KUBECONFIG=${cp.kubeconfig} EVTIMELINE_TEST_VIEWER_KUBECONFIG=${cp.viewerKubeconfig} EVTIMELINE_TEST_CONTROLPLANE_BINARY=${cp.binary}`,
      `kubectl of the server's version: ${cp.binary} kubectl`,
      '',
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );

  // The control plane's process handle is unref'ed; keep this process alive until a signal.
  const keepAlive = setInterval(() => {}, 1 << 30);
  await new Promise<void>((resolve) => {
    let count = 0;
    const onSignal = (sig: NodeJS.Signals): void => {
      count++;
      if (count === 1) {
        process.stderr.write(`\n${sig}: stopping the control plane ...\n`);
        resolve();
      } else {
        process.stderr.write(`${sig} again: exiting now (the control plane stops when it sees this process gone)\n`);
        process.exit(130);
      }
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    process.on('SIGHUP', onSignal);
  });
  const ts = performance.now();
  await cp.stop();
  clearInterval(keepAlive);
  process.stderr.write(`stopped in ${((performance.now() - ts) / 1000).toFixed(1)} s\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);

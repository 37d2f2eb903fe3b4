// `npm run cluster [-- --event-ttl 5m --etcd-compaction-interval 1m --kubeconfig-out PATH --nodes 2
//                     --fast-node-failure | --heartbeat-interval 10s --node-monitor-period 5s
//                     --node-monitor-grace-period 50s --default-not-ready-toleration-seconds 300
//                     --default-unreachable-toleration-seconds 300 --store]`
//
// Starts the test control plane in the foreground for a person: prints `export KUBECONFIG=...`,
// how long start-up took, the node failure timings in effect and how to stop and restart a
// node's heartbeat, then stays up until Ctrl-C (or SIGTERM) and stops cleanly. Node failure
// timings are a real cluster's unless given: the kubelet renews its Lease every 10 s,
// kube-controller-manager checks every 5 s with a 50 s grace period
// (pkg/controller/nodelifecycle/config/v1alpha1/defaults.go), the DefaultTolerationSeconds
// admission plugin gives pods 300 s. --fast-node-failure takes the tests' timings
// (FAST_NODE_FAILURE). A grace period must stay well above the heartbeat interval, or a healthy
// node flaps to Unknown between two renewals: a shorter grace period alone is refused. --store
// also starts a VictoriaLogs and an OpenTelemetry Collector whose k8s_events receiver feeds it
// (test/harness/store-pipeline.ts), and prints their URLs.

import { parseArgs } from 'node:util';
import { controlPlaneEnv, FAST_NODE_FAILURE, startControlPlane, type ControlPlaneOptions } from './controlplane.ts';
import { BUSYBOX_IMAGE, realNodeEnv, startRealNode, UNPULLABLE_IMAGE, type RealNode } from './kubelet-node.ts';
import { missingForRealNode } from './node-prerequisites.mjs';
import { startStorePipeline, type StorePipeline } from './store-pipeline.ts';

/** Seconds in a Go duration as `up` takes them (`1m30s`, `500ms`, `10s`); NaN when it is not one. */
function goSeconds(duration: string): number {
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001, us: 1e-6, µs: 1e-6, ns: 1e-9 };
  const parts = [...duration.matchAll(/(\d+(?:\.\d+)?)(h|ms|us|µs|ns|m|s)/g)];
  if (parts.length === 0 || parts.map((m) => m[0]).join('') !== duration) return Number.NaN;
  return parts.reduce((sum, m) => sum + Number(m[1]) * (units[m[2] ?? 's'] ?? 1), 0);
}

/** The timings `up` will run with: what was given, else its defaults (a real cluster's, test/controlplane/up.go). */
function nodeFailureTimings(opts: ControlPlaneOptions) {
  const heartbeat = opts.heartbeatInterval ?? '10s';
  const gracePeriod = opts.nodeMonitorGracePeriod ?? '50s';
  return {
    heartbeat,
    heartbeatSeconds: goSeconds(heartbeat),
    monitorPeriod: opts.nodeMonitorPeriod ?? '5s',
    gracePeriod,
    gracePeriodSeconds: goSeconds(gracePeriod),
    unreachableSeconds: opts.unreachableTolerationSeconds ?? 300,
  };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      'event-ttl': { type: 'string' },
      'etcd-compaction-interval': { type: 'string' },
      'kubeconfig-out': { type: 'string' },
      nodes: { type: 'string' },
      'fast-node-failure': { type: 'boolean' },
      'heartbeat-interval': { type: 'string' },
      'node-monitor-period': { type: 'string' },
      'node-monitor-grace-period': { type: 'string' },
      'default-not-ready-toleration-seconds': { type: 'string' },
      'default-unreachable-toleration-seconds': { type: 'string' },
      'no-real-node': { type: 'boolean' },
      'max-restart-period': { type: 'string' },
      store: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(
      'usage: npm run cluster [-- --event-ttl 1h] [--etcd-compaction-interval 5m] [--kubeconfig-out PATH] [--nodes 1]\n' +
        '                       [--fast-node-failure] [--heartbeat-interval 10s] [--node-monitor-period 5s]\n' +
        '                       [--node-monitor-grace-period 50s] [--default-not-ready-toleration-seconds 300]\n' +
        '                       [--default-unreachable-toleration-seconds 300] [--max-restart-period 5s] [--no-real-node] [--store]\n' +
        'Node failure timings are a real cluster\'s unless given; --fast-node-failure takes the tests\' (heartbeat 1s,\n' +
        'checks every 1s, grace period 10s, tolerations 5 s): a node is Unknown about 10 s after its heartbeat stops.\n' +
        'A real node, node-k (kubelet, containerd, runc; needs root), joins beside them unless --no-real-node;\n' +
        '--max-restart-period is its kubelet\'s crashLoopBackOff.maxContainerRestartPeriod.\n' +
        '--store also starts a VictoriaLogs and an OpenTelemetry Collector whose k8s_events receiver ships the cluster\'s events to it.\n',
    );
    return 0;
  }
  const opts: ControlPlaneOptions = values['fast-node-failure'] ? { ...FAST_NODE_FAILURE } : {};
  if (values['event-ttl'] !== undefined) opts.eventTTL = values['event-ttl'];
  if (values['heartbeat-interval'] !== undefined) opts.heartbeatInterval = values['heartbeat-interval'];
  if (values['node-monitor-period'] !== undefined) opts.nodeMonitorPeriod = values['node-monitor-period'];
  if (values['etcd-compaction-interval'] !== undefined) opts.compactionInterval = values['etcd-compaction-interval'];
  if (values['kubeconfig-out'] !== undefined) opts.kubeconfigOut = values['kubeconfig-out'];
  if (values['node-monitor-grace-period'] !== undefined) opts.nodeMonitorGracePeriod = values['node-monitor-grace-period'];
  for (const [flag, set] of [
    ['nodes', (n: number) => (opts.nodes = n)],
    ['default-not-ready-toleration-seconds', (n: number) => (opts.notReadyTolerationSeconds = n)],
    ['default-unreachable-toleration-seconds', (n: number) => (opts.unreachableTolerationSeconds = n)],
  ] as const) {
    const raw = values[flag];
    if (raw === undefined) continue;
    if (!/^\d+$/.test(raw)) {
      process.stderr.write(`--${flag} must be a whole number, not ${JSON.stringify(raw)}\n`);
      return 2;
    }
    set(Number(raw));
  }
  const timings = nodeFailureTimings(opts);
  if (timings.gracePeriodSeconds < 2 * timings.heartbeatSeconds) {
    process.stderr.write(
      `--node-monitor-grace-period ${timings.gracePeriod} is less than twice the heartbeat interval ${timings.heartbeat}: ` +
        'a healthy node would turn Unknown between two Lease renewals. Give a shorter --heartbeat-interval too, or --fast-node-failure.\n',
    );
    return 2;
  }

  const withNode = !values['no-real-node'];
  const missing = withNode ? missingForRealNode() : undefined;
  if (missing) {
    process.stderr.write(`${missing} (or start without it: npm run cluster -- --no-real-node)\n`);
    return 1;
  }
  const t0 = performance.now();
  process.stderr.write('starting the test control plane (etcd, kube-apiserver, kube-scheduler, kube-controller-manager) ...\n');
  const cp = await startControlPlane(opts);
  let node: RealNode | undefined;
  if (withNode) {
    process.stderr.write('starting the real node node-k (containerd, kubelet) ...\n');
    try {
      node = await startRealNode(cp, values['max-restart-period'] ? { maxRestartPeriod: values['max-restart-period'] } : {});
    } catch (err) {
      await cp.stop();
      throw err;
    }
  }
  let pipeline: StorePipeline | undefined;
  if (values.store) {
    process.stderr.write('starting VictoriaLogs and the OpenTelemetry Collector (k8s_events receiver -> otlphttp) ...\n');
    try {
      pipeline = await startStorePipeline(cp.kubeconfig);
    } catch (err) {
      await node?.stop();
      await cp.stop();
      throw err;
    }
  }
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
      `Nodes ${cp.nodes.join(', ')} have no kubelet: the supervisor keeps their heartbeat (Lease and Ready).`,
      `Node failure timings: heartbeat every ${timings.heartbeat}, checked every ${timings.monitorPeriod}, Unknown after ${timings.gracePeriod} without one, ` +
        `pods evicted ${timings.unreachableSeconds} s later${values['fast-node-failure'] ? ' (--fast-node-failure)' : " (a real cluster's; --fast-node-failure for the tests')"}.`,
      'Stop node-1\'s heartbeat (its kubelet "dies": NotReady after the grace period, taints, evictions), and restart it:',
      `  ${cp.binary} node --dir ${cp.dir} stop node-1`,
      `  ${cp.binary} node --dir ${cp.dir} start node-1`,
      `  ${cp.binary} node --dir ${cp.dir} list          (add NAME registers another node)`,
      'With one node a failure is a full disruption and the node lifecycle controller evicts nothing: start with --nodes 2 to see evictions.',
      '',
      ...(node
        ? [
            `Real node ${node.name}: kubelet ${node.kubeletVersion}, containerd ${node.containerdVersion}, runc; ready in ${node.startupSeconds.toFixed(1)} s at ${node.nodeIP}, ` +
              `pods ${node.podCIDR} on bridge ${node.bridge}, crash-loop back-off at most ${node.maxRestartPeriod}.`,
            `It is tainted ${node.taint}: give a pod spec.nodeName: ${node.name} (or that toleration and nodeSelector kubernetes.io/hostname: ${node.name}).`,
            `Images made locally, never pulled: ${BUSYBOX_IMAGE} (busybox applets and hog N: touches N MiB), ${node.images.filter((i) => i !== BUSYBOX_IMAGE).join(', ')};`,
            `${UNPULLABLE_IMAGE} can never be pulled (ErrImagePull). Its logs: ${node.dir}/{kubelet,containerd,node}.log`,
            '',
          ]
        : []),
      'Events through client-go\'s own recorders (aggregation, spam filter, series), as an operator writes them:',
      `  ${cp.binary} emit --kubeconfig ${cp.kubeconfig} --kind Pod --name NAME --namespace NS --reason R --message M --count 20`,
      '',
      ...(pipeline
        ? [
            `VictoriaLogs ${pipeline.store.front.url} (its UI: ${pipeline.store.front.url}/select/vmui/), fed by the OpenTelemetry Collector's k8s_events receiver (every namespace);`,
            `its OTLP/HTTP endpoint for export and record --otlp: ${pipeline.store.otlpUrl}`,
            `read it back, even after the cluster has lost the events:  kubectl evtimeline incident -n NS --from ${pipeline.store.fromUrl}`,
            '',
          ]
        : []),
      'To make the integration tests reuse this control plane instead of starting their own:',
      `export ${Object.entries({ ...controlPlaneEnv(cp), ...(node ? realNodeEnv(node) : {}) }).map(([k, v]) => `${k}=${k === 'EVTIMELINE_TEST_REAL_NODE' ? `'${v}'` : v}`).join(' ')}`,
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
  await pipeline?.close();
  await node?.stop();
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

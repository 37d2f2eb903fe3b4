// Proves the test control plane is real: a kube-apiserver that answers /readyz, the node and
// namespace the harness promises, a running kube-scheduler, kubectl of the pinned version, and
// an unprivileged `viewer` whom RBAC refuses until a RoleBinding, and a clean stop that leaves no
// process and no folder behind.
//
// This file deliberately starts its OWN control plane with startControlPlane() (not
// sharedControlPlane()) because its last test stops it and checks that nothing is left.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:https';
import { startControlPlane, type ControlPlane } from '../harness/controlplane.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { waitFor } from '../harness/wait.ts';

let cp: ControlPlane | undefined;

function current(): ControlPlane {
  assert.ok(cp, 'the control plane did not start (see the before hook error)');
  return cp;
}

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[], input?: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(cmd, args, { timeout: 60_000, maxBuffer: 32 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') {
        reject(new Error(`${cmd} ${args.join(' ')}: ${err.message}\n${stderr}`));
        return;
      }
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}

async function kubectl(args: string[], input?: string): Promise<string> {
  const c = current();
  // The real kubectl on PATH (v1.32 on the dev machine), not the control plane's own.
  const r = await run('kubectl', [`--kubeconfig=${c.kubeconfig}`, ...args], input);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

function httpsGet(url: string, token: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Authorization: `Bearer ${token}` }, ca, timeout: 10_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Live processes whose command line mentions `needle` (zombies count as gone). */
function processesMentioning(needle: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state === 'Z') continue;
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ');
      if (cmdline.includes(needle)) found.push(`${name}: ${cmdline}`);
    } catch {
      /* exited meanwhile */
    }
  }
  return found;
}

before(async () => {
  // No skip: without Go (>= 1.26) this fails with ensureControlPlane()'s message.
  cp = await startControlPlane();
  process.stderr.write(
    `control plane ready in ${cp.startupSeconds.toFixed(1)} s at ${cp.server} (state ${cp.dir})\n`,
  );
});

after(async () => {
  await cp?.stop();
});

test('kube-apiserver /readyz answers ok with the admin token', async () => {
  const c = current();
  const r = await httpsGet(`${c.server}/readyz`, c.token, c.ca);
  assert.equal(r.status, 200, r.body);
  assert.equal(r.body.trim(), 'ok');
  const anon = await httpsGet(`${c.server}/api/v1/namespaces`, 'not-a-token', c.ca);
  assert.equal(anon.status, 401, 'a wrong token must be refused');
});

test('kubectl on PATH sees node node-1 with allocatable cpu 2, memory 8Gi, pods 110', async () => {
  const node = JSON.parse(await kubectl(['get', 'node', 'node-1', '-o', 'json'])) as {
    status: {
      allocatable: Record<string, string>;
      capacity: Record<string, string>;
      conditions: { type: string; status: string }[];
    };
  };
  assert.equal(node.status.allocatable.cpu, '2');
  assert.equal(node.status.allocatable.memory, '8Gi');
  assert.equal(node.status.allocatable.pods, '110');
  assert.equal(node.status.capacity.cpu, '2');
  assert.ok(node.status.conditions.some((c) => c.type === 'Ready' && c.status === 'True'));
  const names = (await kubectl(['get', 'nodes', '-o', 'name'])).trim();
  assert.equal(names, 'node/node-1');
});

test('the default namespace exists and is the context namespace', async () => {
  const ns = JSON.parse(await kubectl(['get', 'namespace', 'default', '-o', 'json'])) as {
    metadata: { name: string };
    status: { phase: string };
  };
  assert.equal(ns.metadata.name, 'default');
  assert.equal(ns.status.phase, 'Active');
  assert.equal((await kubectl(['config', 'view', '--minify', '-o', 'jsonpath={..namespace}'])).trim(), 'default');
  assert.equal((await kubectl(['config', 'current-context'])).trim(), 'evtimeline');
});

test('kube-scheduler runs: a 64-CPU pod gets a FailedScheduling warning from default-scheduler', async () => {
  const c = current();
  const ns = await freshNamespace(c.kubeconfig, 'cp-sched');
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'too-big', namespace: ns },
    spec: {
      containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '64' } } }],
    },
  };
  await kubectl(['apply', '-f', '-'], JSON.stringify(pod));

  interface Ev {
    type?: string;
    reason?: string;
    message?: string;
    source?: { component?: string };
    reportingComponent?: string;
    involvedObject?: { kind?: string; name?: string };
  }
  const found = await waitFor('FailedScheduling about too-big', async () => {
    const seen = (JSON.parse(await kubectl(['get', 'events', '-n', ns, '-o', 'json'])) as { items: Ev[] }).items;
    return seen.find((e) => e.reason === 'FailedScheduling' && e.involvedObject?.name === 'too-big');
  });
  assert.equal(found.type, 'Warning');
  assert.equal(found.involvedObject?.kind, 'Pod');
  assert.equal(found.reportingComponent || found.source?.component, 'default-scheduler');
  assert.match(found.message ?? '', /0\/1 nodes are available/);
  assert.match(found.message ?? '', /Insufficient cpu/);
});

test('`controlplane kubectl version` reports server and client v1.36.3', async () => {
  const c = current();
  const r = await run(c.binary, ['kubectl', `--kubeconfig=${c.kubeconfig}`, 'version', '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const v = JSON.parse(r.stdout) as { clientVersion: { gitVersion: string }; serverVersion: { gitVersion: string } };
  assert.equal(v.serverVersion.gitVersion, 'v1.36.3');
  assert.equal(v.clientVersion.gitVersion, 'v1.36.3');
  assert.equal(c.kubernetesVersion, 'v1.36.3');
});

test('viewer is only system:authenticated: forbidden to list events until bound the view ClusterRole', async () => {
  const c = current();
  const asViewer = (args: string[]) => run('kubectl', [`--kubeconfig=${c.viewerKubeconfig}`, ...args]);
  const who = await asViewer(['auth', 'whoami', '-o', 'json']);
  assert.equal(who.code, 0, who.stderr);
  const user = (JSON.parse(who.stdout) as { status: { userInfo: { username: string; groups: string[] } } }).status.userInfo;
  assert.deepEqual([user.username, user.groups], ['viewer', ['system:authenticated']]);

  const ns = await freshNamespace(c.kubeconfig, 'cp-viewer');
  const refused = await asViewer(['get', 'events', '-n', ns]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /forbidden: User "viewer" cannot list resource "events"/);

  await kubectl(['create', 'rolebinding', 'viewer-view', '--clusterrole=view', '--user=viewer', '-n', ns]);
  // The RBAC authorizer learns of the binding through an informer: allow it a moment.
  const allowed = await waitFor('the binding to take effect', async () => {
    const r = await asViewer(['get', 'events', '-n', ns]);
    return r.code === 0 ? r : undefined;
  });
  assert.equal(allowed.stderr, `No resources found in ${ns} namespace.\n`);
  const elsewhere = await asViewer(['get', 'events', '-n', 'default']);
  assert.equal(elsewhere.code, 1, 'the binding is for its namespace only');
});

test('stop() leaves no process and no temp folder behind', async () => {
  const c = current();
  const pids = [c.pids.supervisor, c.pids.apiserver, c.pids.scheduler, c.pids.controllerManager];
  assert.ok(pids.every((p) => p > 0), `pids: ${JSON.stringify(c.pids)}`);
  assert.ok(pids.every(pidAlive), 'all four processes run before stop()');
  assert.ok(existsSync(c.dir));
  assert.ok(existsSync(c.viewerKubeconfig));
  assert.ok(existsSync(c.controlSocket));
  assert.ok(processesMentioning(c.dir).length >= 3, 'kube-apiserver, kube-scheduler and kube-controller-manager have the state dir in their flags');

  await c.stop();

  assert.deepEqual(
    pids.filter(pidAlive),
    [],
    'supervisor (with etcd in-process), kube-apiserver, kube-scheduler and kube-controller-manager are gone',
  );
  assert.deepEqual(processesMentioning(c.dir), []);
  assert.equal(existsSync(c.dir), false, `${c.dir} was removed`);
  assert.equal(existsSync(c.kubeconfig), false);
  assert.equal(existsSync(c.viewerKubeconfig), false);
});

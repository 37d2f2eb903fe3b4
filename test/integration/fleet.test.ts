// Several contexts read together on three real control planes (the shared one and two of this
// file's own), each with its own events, through a kubeconfig whose contexts differ in name, user
// and namespace: every context's rows in the merged table are what `kubectl events --context X`
// prints for it. Two contexts on the same server and namespace (other user) are read once; one of the
// three control planes is stopped mid-test, and a server that never answers meets --request-timeout.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedControlPlane, startControlPlane } from '../harness/controlplane.ts';
import type { ControlPlane } from '../harness/controlplane.ts';
import { comparableRows } from '../harness/kubectl-events.ts';
import { kubectlOk } from '../harness/kubectl.ts';
import { createNamespace, freshNamespace } from '../harness/namespace.ts';
import { evtimeline } from '../harness/plugin.ts';
import { scratchDir } from '../support/tmp.ts';
import { spawn } from 'node:child_process';
import { PLUGIN_BINARY } from '../harness/plugin.ts';
import { createDeployment, listEvents, waitForUnschedulable } from '../harness/workloads.ts';
import type { KubeObject } from '../harness/workloads.ts';
import { kubectlJSON } from '../harness/kubectl.ts';
import { startTcpProxy } from '../harness/tcp-proxy.ts';
import { ensureOtelcol } from '../harness/build-otelcol.mjs';
import { startCollector } from '../harness/otelcol.ts';
import type { TcpProxy } from '../harness/tcp-proxy.ts';
import { observedName, recordSoFar } from '../support/record-so-far.ts';

const dir = scratchDir('fleet');
const cpShared = sharedControlPlane();
let east: ControlPlane;
let west: ControlPlane;
let south: ControlPlane;
let kubeconfig: string;
let hangConfig: string;
let hang: Server;
const ns: Record<string, string> = {};

/** Each context's events: a reason only it has, and one reason they share. */
const REASONS: Record<string, string[]> = { east: ['ImagePulled', 'BackOff'], 'east-other': ['Scaled'], west: ['FailedScheduling', 'BackOff'], south: ['Evicted'] };

function event(namespace: string, reason: string, i: number) {
  const first = new Date(Date.now() - (60 + i * 7) * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${reason.toLowerCase()}-${i}`, namespace },
    involvedObject: { apiVersion: 'v1', kind: 'Pod', name: `web-${i}`, namespace },
    reason,
    type: reason === 'BackOff' || reason === 'FailedScheduling' ? 'Warning' : 'Normal',
    // BackOff's message is the same in every cluster (the same image failing everywhere): one story told in two.
    message: reason === 'BackOff' ? 'Back-off restarting failed container app in pod web' : `${reason} in ${namespace}`,
    firstTimestamp: first,
    lastTimestamp: first,
    count: 1,
    source: { component: 'fleet-test' },
  };
}

function cluster(name: string, cp: ControlPlane) {
  return { name, cluster: { server: cp.server, 'certificate-authority-data': Buffer.from(cp.ca).toString('base64') } };
}

before(async () => {
  // Two control planes of this file's own, started while the shared one is asked for.
  [east, west, south] = await Promise.all([cpShared, startControlPlane(), startControlPlane()]);
  ns.east = await freshNamespace(east.kubeconfig, 'fleet-east');
  ns['east-other'] = await freshNamespace(east.kubeconfig, 'fleet-east-other');
  ns.west = await createNamespace(west.kubeconfig, 'shop-west');
  ns.south = await createNamespace(south.kubeconfig, 'shop-south');
  const cps: Record<string, ControlPlane> = { east, 'east-other': east, west, south };
  for (const [context, reasons] of Object.entries(REASONS)) {
    const items = reasons.map((reason, i) => event(ns[context] as string, reason, i));
    await kubectlOk((cps[context] as ControlPlane).kubeconfig, ['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  }
  kubeconfig = join(dir, 'fleet.kubeconfig');
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'east',
    clusters: [cluster('c-east', east), cluster('c-west', west), cluster('c-south', south)],
    users: [
      { name: 'admin-east', user: { token: east.token } },
      { name: 'ops-east', user: { token: east.token } },
      { name: 'admin-west', user: { token: west.token } },
      { name: 'admin-south', user: { token: south.token } },
    ],
    contexts: [
      { name: 'east', context: { cluster: 'c-east', user: 'admin-east', namespace: ns.east } },
      { name: 'east-ops', context: { cluster: 'c-east', user: 'ops-east', namespace: ns.east } },
      { name: 'east-other', context: { cluster: 'c-east', user: 'admin-east', namespace: ns['east-other'] } },
      { name: 'west', context: { cluster: 'c-west', user: 'admin-west', namespace: ns.west } },
      { name: 'south', context: { cluster: 'c-south', user: 'admin-south', namespace: ns.south } },
    ],
  };
  writeFileSync(kubeconfig, JSON.stringify(config));
  // A server that takes the request and never answers: only --request-timeout ends the wait.
  hang = createServer(() => {});
  await new Promise<void>((resolve) => hang.listen(0, '127.0.0.1', resolve));
  const port = (hang.address() as { port: number }).port;
  hangConfig = join(dir, 'hang.kubeconfig');
  writeFileSync(
    hangConfig,
    JSON.stringify({
      ...config,
      clusters: [...config.clusters, { name: 'c-hang', cluster: { server: `http://127.0.0.1:${port}` } }],
      contexts: [...config.contexts, { name: 'hang', context: { cluster: 'c-hang', user: 'admin-east', namespace: 'default' } }],
    }),
  );
});

let proxy: TcpProxy | undefined;
after(async () => {
  await proxy?.close();
  hang?.closeAllConnections();
  hang?.close();
  await Promise.all([west?.stop(), south?.stop()]);
});

/** The rows of one context in the merged table (header kept), on kubectl events' columns. */
function rowsOfContext(table: string, context: string): string[] {
  const [header = '', ...rows] = table.split('\n');
  const mine = rows.filter((row) => row.split(/\s+/)[0] === context);
  // Contexts reading different namespaces add NAMESPACE after CONTEXT: each row's is its context's.
  if (/^CONTEXT\s+NAMESPACE\s/.test(header)) for (const row of mine) assert.equal(row.split(/\s+/)[1], ns[context], row);
  return comparableRows([header.replace('NAMESPACE', ' '.repeat(9)), ...mine].join('\n'));
}

async function kubectlEvents(context: string): Promise<string[]> {
  return comparableRows(await kubectlOk(kubeconfig, ['events', '--context', context]));
}

test('--context a,b,c: each context\'s rows are what kubectl events --context X prints', { timeout: 120_000 }, async () => {
  const r = await evtimeline(['--context', 'east,east-other', '--context', 'west,south'], kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^CONTEXT\s+NAMESPACE\s+FIRST SEEN\s+LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+FROM\s+MESSAGE\n/);
  for (const context of ['east', 'east-other', 'west', 'south']) {
    const theirs = await kubectlEvents(context);
    assert.equal(theirs.length, REASONS[context]?.length);
    assert.deepEqual(rowsOfContext(r.stdout, context), theirs, context);
  }
  assert.equal(r.stdout.trimEnd().split('\n').length, 1 + 6);
});

test('two contexts on the same server and namespace (another user) are read once, and said', { timeout: 60_000 }, async () => {
  const r = await evtimeline(['--context', 'east,east-ops,west'], kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, new RegExp(`^context "east-ops" reads namespace "${ns.east}" of ${east.server.replace(/\./g, '\\.')}, as context "east" does: read once, as "east"$`, 'm'));
  assert.deepEqual(rowsOfContext(r.stdout, 'east'), await kubectlEvents('east'));
  assert.equal(r.stdout.split('\n').filter((row) => row.startsWith('east-ops')).length, 0);
});

test('-o stable is prefixed with the context only for several; -o json carries context and server', { timeout: 60_000 }, async () => {
  const one = await evtimeline(['--context', 'west', '-o', 'stable'], kubeconfig);
  assert.equal(one.stdout, 'Warning BackOff Pod/web-1\nWarning FailedScheduling Pod/web-0\n');
  const several = await evtimeline(['--contexts', '^(west|south)$', '-o', 'stable'], kubeconfig);
  assert.equal(several.stdout, 'south Normal Evicted Pod/web-0\nwest Warning BackOff Pod/web-1\nwest Warning FailedScheduling Pod/web-0\n');
  const json = await evtimeline(['--all-contexts', '-o', 'json'], kubeconfig);
  assert.equal(json.code, 0, json.stderr);
  const items = JSON.parse(json.stdout) as { reason: string; namespace: string; context: string; server: string; firstSeen: string }[];
  // One story in time order across the clusters.
  const times = items.map((item) => Date.parse(item.firstSeen));
  assert.deepEqual(times, [...times].sort((a, b) => a - b));
  const servers: Record<string, string> = { east: east.server, 'east-other': east.server, west: west.server, south: south.server };
  assert.equal(items.length, 6);
  for (const item of items) {
    assert.equal(item.server, servers[item.context], item.context);
    assert.equal(item.namespace, ns[item.context]);
    assert.ok(REASONS[item.context]?.includes(item.reason), `${item.context} ${item.reason}`);
  }
});

test('incident across clusters: the story two clusters share is named with both, each cluster\'s standing against kubectl events', { timeout: 120_000 }, async () => {
  const r = await evtimeline(['incident', '--context', 'east,west,south'], kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Incident in 3 contexts \(east, west, south\), read from their clusters at /);
  assert.match(r.stdout, /^ {2}3 contexts read together, 3 answered\. 1 story is told in more than one cluster:\n {2}BackOff on Pod\/web-<n>: in 2 of 3 clusters \(east, west\)\.$/m);
  const servers: Record<string, string> = { east: east.server, west: west.server, south: south.server };
  for (const context of ['east', 'west', 'south']) {
    const rows = (await kubectlEvents(context)).length;
    const line = new RegExp(`^ {2}${context} \\(${servers[context]?.replace(/\./g, '\\.')}, namespace ${ns[context]}\\): ${rows} events?, back to \\S+ \\(\\S+ ago\\); an event not written for 1h \\(--event-ttl\\) is gone from it\\.$`, 'm');
    assert.match(r.stdout, line, context);
  }
  // The two BackOff Pods, one in each cluster, are one family said to span both.
  assert.match(r.stdout, /^east: Pod\/web-1 and 1 more Pod\/web-<n> with the same story in 2 clusters \(east, west\)$/m);
  const json = JSON.parse((await evtimeline(['incident', '--context', 'east,west,south', '-o', 'json'], kubeconfig)).stdout) as {
    clusters: { answered: number; standing: { context: string; server: string; events: number }[]; shared: { clusters: string[] }[] };
  };
  assert.deepEqual(json.clusters.standing.map((s) => [s.context, s.server, s.events]), [['east', east.server, 2], ['west', west.server, 2], ['south', south.server, 1]]);
  assert.deepEqual(json.clusters.shared.map((s) => s.clusters), [['east', 'west']]);
});

/** The plugin following, its stdout read line by line as it comes. */
function follow(args: string[], config: string) {
  const child = spawn(PLUGIN_BINARY, [...args, '--kubeconfig', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let buffered = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    lines.push(...parts);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const until = async (what: string, ok: () => boolean) => {
    const end = Date.now() + 60_000;
    while (!ok()) {
      if (child.exitCode !== null) throw new Error(`the follower exited (${child.exitCode}) waiting for ${what}: ${err}`);
      if (Date.now() > end) throw new Error(`no ${what} in 60 s; stdout: ${lines.join('\n')}; stderr: ${err}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return { child, lines, stderr: () => err, exited, until };
}

test('-w across contexts: one stream, each event labelled; a cluster that drops is told and resumes while the other goes on', { timeout: 180_000 }, async () => {
  proxy = await startTcpProxy(west.server);
  const config = join(dir, 'proxied-west.kubeconfig');
  const base = JSON.parse(readFileSync(kubeconfig, 'utf8')) as { clusters: { name: string; cluster: Record<string, string> }[]; contexts: unknown[] };
  writeFileSync(
    config,
    JSON.stringify({ ...base, clusters: [...base.clusters, { name: 'c-west-p', cluster: { ...base.clusters[1]?.cluster, server: proxy.url } }], contexts: [...base.contexts, { name: 'west-p', context: { cluster: 'c-west-p', user: 'admin-west', namespace: ns.west } }] }),
  );
  const f = follow(['-w', '-o', 'json', '--context', 'east,west-p'], config);
  type Row = { name: string; context: string; server: string };
  const rows = () => f.lines.map((line) => JSON.parse(line) as Row);
  const has = (context: string, name: string) => rows().some((r) => r.context === context && r.name === name);
  // What each cluster holds now, each labelled with its context and the server it was read from.
  await f.until('the listed events', () => f.lines.length >= 4);
  assert.deepEqual(rows().map((r) => `${r.context} ${r.server === east.server || r.server === proxy?.url}`).sort(), ['east true', 'east true', 'west-p true', 'west-p true']);
  // West drops and cannot reconnect: east goes on.
  proxy.refuse(true);
  assert.ok(proxy.cutAll() > 0);
  await kubectlOk(east.kubeconfig, ['create', '-f', '-'], JSON.stringify(event(ns.east as string, 'Started', 20)));
  await f.until('east\'s new event while west is down', () => has('east', 'started-20'));
  await kubectlOk(west.kubeconfig, ['create', '-f', '-'], JSON.stringify(event(ns.west as string, 'Pulling', 21)));
  await f.until('a notice naming west-p', () => /^context "west-p": (watch|list) failed \(.+\): retrying in /m.test(f.stderr()));
  assert.ok(!has('west-p', 'pulling-21'));
  // West comes back: what it wrote meanwhile arrives, labelled, once.
  proxy.refuse(false);
  await f.until('west\'s missed event', () => has('west-p', 'pulling-21'));
  f.child.kill('SIGINT');
  assert.equal(await f.exited, 0, f.stderr());
  assert.equal(rows().filter((r) => r.name === 'pulling-21').length, 1);
  assert.equal(rows().length, 6, f.lines.join('\n'));
});

/** A record's lines, parsed: its headers, and its observations as `context name type`. */
function recordLines(file: string): { headers: Record<string, unknown>[]; observations: { context?: string; type: string; name: string }[] } {
  const { headers, observations } = recordSoFar(file);
  return { headers, observations: observations.map((o) => ({ ...(typeof o.context === 'string' ? { context: o.context } : {}), type: o.type, name: observedName(o) })) };
}

test('record across contexts: one file naming every server, each line labelled; a cluster cut mid-run resumes, one refused for good is said (exit 4); --from reads it as live', { timeout: 180_000 }, async () => {
  const cut = await startTcpProxy(west.server);
  try {
    const config = join(dir, 'record.kubeconfig');
    const base = JSON.parse(readFileSync(kubeconfig, 'utf8')) as { clusters: { name: string; cluster: Record<string, string> }[]; users: unknown[]; contexts: unknown[] };
    writeFileSync(
      config,
      JSON.stringify({
        ...base,
        clusters: [...base.clusters, { name: 'c-west-r', cluster: { ...base.clusters[1]?.cluster, server: cut.url } }],
        users: [...base.users, { name: 'nobody', user: { token: 'not-a-token' } }],
        contexts: [
          ...base.contexts,
          { name: 'west-r', context: { cluster: 'c-west-r', user: 'admin-west', namespace: ns.west } },
          { name: 'refused', context: { cluster: 'c-east', user: 'nobody', namespace: ns['east-other'] } },
        ],
      }),
    );
    const file = join(dir, 'fleet.jsonl');
    const f = follow(['record', file, '--context', 'east,west-r,refused'], config);
    const has = (context: string, name: string) => recordLines(file).observations.some((o) => o.context === context && o.name === name);
    // Each cluster's list is in the file, each line labelled; the context the server refuses is said and left out.
    const eastNow = (await listEvents(east.kubeconfig, ns.east as string)).map((e) => e.metadata.name);
    const westNow = (await listEvents(west.kubeconfig, ns.west as string)).map((e) => e.metadata.name);
    await f.until('both lists in the record', () => eastNow.every((n) => has('east', n)) && westNow.every((n) => has('west-r', n)));
    await f.until('the refused context said', () => /^warning: context "refused" \(https:\/\/127\.0\.0\.1:\d+\) stopped answering, its events are no longer followed: .*(Unauthorized|401)/m.test(f.stderr()));
    // West drops and cannot reconnect: east's new event is still recorded.
    cut.refuse(true);
    assert.ok(cut.cutAll() > 0);
    await kubectlOk(east.kubeconfig, ['create', '-f', '-'], JSON.stringify(event(ns.east as string, 'Recorded', 30)));
    await f.until('east\'s new event while west is down', () => has('east', 'recorded-30'));
    await kubectlOk(west.kubeconfig, ['create', '-f', '-'], JSON.stringify(event(ns.west as string, 'Recorded', 31)));
    await f.until('a notice naming west-r', () => /^context "west-r": (watch|list) failed \(.+\): retrying in /m.test(f.stderr()));
    assert.ok(!has('west-r', 'recorded-31'));
    // West comes back: what it wrote meanwhile is recorded once, under its context.
    cut.refuse(false);
    await f.until('west\'s missed event', () => has('west-r', 'recorded-31'));
    f.child.kill('SIGINT');
    assert.equal(await f.exited, 4, f.stderr());
    assert.match(f.stderr(), /^recorded \d+ lines \(\d+ added, 0 modified, 0 deleted\) to .*fleet\.jsonl; it holds \d+ observations$/m);
    const { headers, observations } = recordLines(file);
    assert.equal(headers.length, 1);
    assert.deepEqual(headers[0]?.clusters, [
      { context: 'east', server: east.server, namespace: ns.east },
      { context: 'west-r', server: cut.url, namespace: ns.west },
      { context: 'refused', server: east.server, namespace: ns['east-other'] },
    ]);
    assert.deepEqual([...new Set(observations.map((o) => o.context))].sort(), ['east', 'west-r']);
    assert.equal(observations.filter((o) => o.name === 'recorded-31').length, 1);
    // Read back: each context's rows are what kubectl events --context X prints now.
    const read = await evtimeline(['--from', file], kubeconfig);
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, /^CONTEXT\s+NAMESPACE\s+FIRST SEEN\s+LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+FROM\s+MESSAGE\n/);
    assert.doesNotMatch(read.stderr, /recorded from \d+ API servers/);
    ns['west-r'] = ns.west as string;
    assert.deepEqual(rowsOfContext(read.stdout, 'east'), await kubectlEvents('east'));
    assert.deepEqual(rowsOfContext(read.stdout, 'west-r'), await kubectlEvents('west'));
    // Continued by other contexts: refused in one line, the file unchanged.
    const before = readFileSync(file, 'utf8');
    const other = await evtimeline(['record', file, '--context', 'east,south', '--duration', '1s'], config);
    assert.equal(other.code, 2, other.stderr);
    assert.match(other.stderr, /was recorded from contexts "east" \(.+\), "west-r" \(.+\), "refused" \(.+\), and this run reads contexts "east" \(.+\), "south" \(.+\): a record is continued by the same contexts only/);
    assert.equal(readFileSync(file, 'utf8'), before);
  } finally {
    await cut.close();
  }
});

test('record across contexts read back with --from: the same timeline, incident and page as the live read', { timeout: 120_000 }, async () => {
  const file = join(dir, 'three.jsonl');
  const rec = await evtimeline(['record', file, '--context', 'east,west,south', '--duration', '4s'], kubeconfig);
  assert.equal(rec.code, 0, rec.stderr);
  type Item = { context: string; server: string; name: string; reason: string; namespace: string; count: number };
  const strip = (text: string) => (JSON.parse(text) as Item[]).map(({ context, server, name, reason, namespace, count }) => ({ context, server, name, reason, namespace, count }));
  const live = await evtimeline(['--context', 'east,west,south', '-o', 'json'], kubeconfig);
  const saved = await evtimeline(['--from', file, '-o', 'json'], kubeconfig);
  assert.equal(saved.code, 0, saved.stderr);
  assert.deepEqual(strip(saved.stdout), strip(live.stdout));
  for (const context of ['east', 'west', 'south']) assert.deepEqual(rowsOfContext((await evtimeline(['--from', file], kubeconfig)).stdout, context), await kubectlEvents(context), context);
  // -o stable: each line prefixed with its context, as live.
  assert.equal((await evtimeline(['--from', file, '-o', 'stable'], kubeconfig)).stdout, (await evtimeline(['--context', 'east,west,south', '-o', 'stable'], kubeconfig)).stdout);
  // The incident: the same clusters, the same shared story, each cluster's standing.
  const incident = await evtimeline(['incident', '--from', file], kubeconfig);
  assert.equal(incident.code, 0, incident.stderr);
  assert.match(incident.stdout, /^Incident in 3 contexts \(east, west, south\), read from a record/);
  const liveIncident = await evtimeline(['incident', '--context', 'east,west,south'], kubeconfig);
  const shared = (text: string) => text.split('\n').filter((l) => / in \d+ of \d+ clusters| read together, /.test(l));
  assert.deepEqual(shared(incident.stdout), shared(liveIncident.stdout));
  assert.ok(shared(incident.stdout).length >= 2, incident.stdout);
  const json = JSON.parse((await evtimeline(['incident', '--from', file, '-o', 'json'], kubeconfig)).stdout) as { clusters: { standing: { context: string; server: string; events: number }[] } };
  const liveJson = JSON.parse((await evtimeline(['incident', '--context', 'east,west,south', '-o', 'json'], kubeconfig)).stdout) as typeof json;
  assert.deepEqual(json.clusters.standing.map((s) => [s.context, s.server, s.events]), liveJson.clusters.standing.map((s) => [s.context, s.server, s.events]));
  // The page groups lanes by cluster as the live one does.
  const page = await evtimeline(['--from', file, '-o', 'html'], kubeconfig);
  for (const context of ['east', 'west', 'south']) assert.match(page.stdout, new RegExp(`"context":"${context}"`));
});

test('--compare of a record of several contexts pairs each server\'s events with the same server\'s, as kubectl events --context X lists them now', { timeout: 120_000 }, async () => {
  // The same event name in two clusters; west's is then deleted: gone there, still in east.
  for (const [cp, context] of [[east, 'east'], [west, 'west']] as const) await kubectlOk(cp.kubeconfig, ['create', '-f', '-'], JSON.stringify(event(ns[context] as string, 'Twin', 40)));
  const file = join(dir, 'twins.jsonl');
  const rec = await evtimeline(['record', file, '--context', 'east,west', '--duration', '3s'], kubeconfig);
  assert.equal(rec.code, 0, rec.stderr);
  await kubectlOk(west.kubeconfig, ['-n', ns.west as string, 'delete', 'event', 'twin-40']);
  const r = await evtimeline(['--from', file, '--compare', '-o', 'json'], kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  const items = JSON.parse(r.stdout) as { context: string; name: string; onServer?: boolean }[];
  const listed: Record<string, string[]> = {};
  for (const context of ['east', 'west']) listed[context] = (await kubectlJSON<{ items: { metadata: { name: string } }[] }>(kubeconfig, ['--context', context, 'get', 'events'])).items.map((e) => e.metadata.name);
  assert.ok(items.length >= 4);
  for (const item of items) assert.equal(item.onServer, listed[item.context]?.includes(item.name), `${item.context} ${item.name}`);
  assert.deepEqual(items.filter((i) => i.name === 'twin-40').map((i) => `${i.context} ${i.onServer}`).sort(), ['east true', 'west false']);
  assert.match(r.stderr, new RegExp(`^1 of ${items.length} events in the record is no longer on the server`, 'm'));
  // The incident says the same of it.
  const incident = await evtimeline(['incident', '--from', file, '--compare'], kubeconfig);
  assert.equal(incident.code, 0, incident.stderr);
  assert.match(incident.stdout, /compared with the cluster at /);
  // A server the record names that no context read now talks to: refused, every event of it would look gone.
  const one = await evtimeline(['--from', file, '--compare', '--context', 'east'], kubeconfig);
  assert.equal(one.code, 2, one.stderr);
  assert.match(one.stderr, /--compare: .*twins\.jsonl recorded context "west" from https:\/\/127\.0\.0\.1:\d+, which none of the contexts read now talks to \("east"\): every event of it would look gone/);
  // A record of one context is compared with one.
  const single = join(dir, 'east-only.jsonl');
  assert.equal((await evtimeline(['record', single, '--context', 'east', '--duration', '2s'], kubeconfig)).code, 0);
  const mixed = await evtimeline(['--from', single, '--compare', '--context', 'east,west'], kubeconfig);
  assert.equal(mixed.code, 2);
  assert.match(mixed.stderr, /was taken from one context: compare it with one --context/);
  // Several contexts still do not apply to --from alone.
  assert.equal((await evtimeline(['--from', file, '--context', 'east,west'], kubeconfig)).code, 2);
});

test('capture across contexts: one capture of the clusters\' reports, each row against kubectl events --context X; --from it reads as live', { timeout: 120_000 }, async () => {
  const folder = join(dir, 'fleet-capture');
  const r = await evtimeline(['capture', folder, '--context', 'east,west,south'], kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^captured \d+ events of 3 contexts \(east, west, south\) into /);
  const doc = JSON.parse(readFileSync(join(folder, 'events.json'), 'utf8')) as { clusters: { context: string; server: string }[]; core: { metadata: { name: string } }[]; coreContexts: string[] };
  assert.deepEqual(doc.clusters.map((c) => [c.context, c.server]), [['east', east.server], ['west', west.server], ['south', south.server]]);
  assert.equal(doc.coreContexts.length, doc.core.length);
  const table = readFileSync(join(folder, 'events-list.txt'), 'utf8');
  for (const context of ['east', 'west', 'south']) {
    assert.deepEqual(rowsOfContext(table, context), await kubectlEvents(context), context);
    // Each object in events.json is named with the context kubectl lists it in.
    const names = (await kubectlJSON<{ items: { metadata: { name: string } }[] }>(kubeconfig, ['--context', context, 'get', 'events'])).items.map((e) => e.metadata.name).sort();
    assert.deepEqual(doc.core.filter((_, i) => doc.coreContexts[i] === context).map((e) => e.metadata.name).sort(), names, context);
  }
  assert.match(readFileSync(join(folder, 'incident.txt'), 'utf8'), /^Incident in 3 contexts \(east, west, south\), read from their clusters at /);
  assert.match(readFileSync(join(folder, 'incident.txt'), 'utf8'), /^ {2}BackOff on Pod\/web-<n>: in 2 of 3 clusters \(east, west\)\.$/m);
  assert.match(readFileSync(join(folder, 'timeline.txt'), 'utf8'), /^south Normal Evicted Pod\/web-0$/m);
  type Item = { context: string; server: string; name: string; reason: string };
  const strip = (text: string) => (JSON.parse(text) as Item[]).map(({ context, server, name, reason }) => ({ context, server, name, reason }));
  const saved = await evtimeline(['--from', folder, '-o', 'json'], kubeconfig);
  assert.equal(saved.code, 0, saved.stderr);
  assert.deepEqual(strip(saved.stdout), strip((await evtimeline(['--context', 'east,west,south', '-o', 'json'], kubeconfig)).stdout));
  assert.match((await evtimeline(['incident', '--from', folder], kubeconfig)).stdout, /^Incident in 3 contexts \(east, west, south\), read from a capture taken at /);
});

/** Event names in a collector's file, by the k8s.cluster.name of their resource. */
function byCluster(text: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const line of text.split('\n').filter((l) => l.trim() !== '')) {
    for (const rl of (JSON.parse(line) as { resourceLogs: { resource: { attributes: { key: string; value: { stringValue?: string } }[] }; scopeLogs: { logRecords: { attributes: { key: string; value: { stringValue?: string } }[] }[] }[] }[] }).resourceLogs) {
      const cluster = rl.resource.attributes.find((a) => a.key === 'k8s.cluster.name')?.value.stringValue ?? '(none)';
      for (const sl of rl.scopeLogs) for (const lr of sl.logRecords) (out[cluster] ??= []).push(lr.attributes.find((a) => a.key === 'k8s.event.name')?.value.stringValue ?? '');
    }
  }
  for (const names of Object.values(out)) names.sort();
  return out;
}

/** The names of the events kubectl lists in a context now, sorted. */
async function kubectlNames(context: string): Promise<string[]> {
  return (await kubectlJSON<{ items: { metadata: { name: string } }[] }>(kubeconfig, ['--context', context, 'get', 'events'])).items.map((e) => e.metadata.name).sort();
}

test('export --otlp across contexts: each log record carries its context as k8s.cluster.name, each cluster\'s records what kubectl lists in it', { timeout: 600_000 }, async () => {
  if (!process.env.EVTIMELINE_TEST_OTELCOL_BINARY) await ensureOtelcol();
  const collector = await startCollector();
  try {
    const r = await evtimeline(['export', '--otlp', collector.url, '--context', 'east,west,south'], kubeconfig);
    assert.equal(r.code, 0, r.stderr);
    await collector.stop('SIGTERM');
    const sent = byCluster(await collector.readOutput());
    const expected: Record<string, string[]> = {};
    for (const context of ['east', 'west', 'south']) expected[context] = await kubectlNames(context);
    assert.deepEqual(sent, expected);
    // Read back with --from, the collector's file gives each record its context again: the CONTEXT
    // column with each context's rows as kubectl events --context X prints them, the incident's clusters.
    const read = await evtimeline(['--from', collector.output], kubeconfig);
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, /^CONTEXT\s+NAMESPACE\s+FIRST SEEN\s+LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+FROM\s+MESSAGE\n/);
    for (const context of ['east', 'west', 'south']) assert.deepEqual(rowsOfContext(read.stdout, context), await kubectlEvents(context), context);
    type Standing = { clusters: { standing: { context: string; server: string; namespace: string | null; events: number }[]; shared: { clusters: string[] }[] } };
    const incident = JSON.parse((await evtimeline(['incident', '--from', collector.output, '-o', 'json'], kubeconfig)).stdout) as Standing;
    const liveIncident = JSON.parse((await evtimeline(['incident', '--context', 'east,west,south', '-o', 'json'], kubeconfig)).stdout) as Standing;
    const byContext = (doc: Standing) => doc.clusters.standing.map((s) => `${s.context} ${s.namespace} ${s.events}`).sort();
    assert.deepEqual(byContext(incident), byContext(liveIncident));
    assert.deepEqual(incident.clusters.standing.map((s) => s.server), ['', '', '']);
    assert.deepEqual(incident.clusters.shared.map((g) => [...g.clusters].sort()), liveIncident.clusters.shared.map((g) => [...g.clusters].sort()));
    assert.match((await evtimeline(['incident', '--from', collector.output], kubeconfig)).stdout, /^ {2}BackOff on Pod\/web-<n>: in 2 of 3 clusters \((east, west|west, east)\)\.$/m);
    // --compare cannot pair them with a live read: the file names no API server.
    const compare = await evtimeline(['--from', collector.output, '--compare'], kubeconfig);
    assert.equal(compare.code, 2, compare.stderr);
    assert.match(compare.stderr, /names its clusters \(k8s\.cluster\.name\) but not their API servers/);
    // A record of several contexts back-filled: each version under the context it was recorded from.
    const file = join(dir, 'three.jsonl');
    const again = await startCollector();
    try {
      const back = await evtimeline(['export', '--otlp', again.url, '--from', file], kubeconfig);
      assert.equal(back.code, 0, back.stderr);
      await again.stop('SIGTERM');
      const recorded: Record<string, string[]> = {};
      for (const o of recordLines(file).observations) if (o.type !== 'DELETED') (recorded[o.context ?? '(none)'] ??= []).push(o.name);
      for (const names of Object.values(recorded)) names.sort();
      assert.deepEqual(byCluster(await again.readOutput()), recorded);
      assert.deepEqual(Object.keys(recorded).sort(), ['east', 'south', 'west']);
      // Read back, the collector's file tells the record's events under their contexts.
      type Item = { context: string; name: string; reason: string; namespace: string; count: number };
      const strip = (text: string) => (JSON.parse(text) as Item[]).map(({ context, name, reason, namespace, count }) => `${context} ${namespace}/${name} ${reason} ${count}`).sort();
      assert.deepEqual(strip((await evtimeline(['--from', again.output, '-o', 'json'], kubeconfig)).stdout), strip((await evtimeline(['--from', file, '-o', 'json'], kubeconfig)).stdout));
    } finally {
      await again.close();
    }
  } finally {
    await collector.close();
  }
});

/** A record's observations as `context uid@resourceVersion type`, one string each. */
function versionKeys(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { context?: string; type?: string; event?: { metadata: { uid: string; resourceVersion: string } } })
    .flatMap((o) => (o.event === undefined || typeof o.type !== 'string' ? [] : [`${o.context ?? ''} ${o.event.metadata.uid}@${o.event.metadata.resourceVersion} ${o.type}`]));
}

test('record --otlp across contexts: every log record the collector got carries its context as k8s.cluster.name, the same versions as the record', { timeout: 600_000 }, async () => {
  if (!process.env.EVTIMELINE_TEST_OTELCOL_BINARY) await ensureOtelcol();
  const collector = await startCollector();
  try {
    const file = join(dir, 'shipped.jsonl');
    const r = await evtimeline(['record', file, '--context', 'east,west,south', '--duration', '4s', '--otlp', collector.url], kubeconfig);
    assert.equal(r.code, 0, r.stderr);
    await collector.stop('SIGTERM');
    const recorded: Record<string, string[]> = {};
    for (const o of recordLines(file).observations) if (o.type !== 'DELETED') (recorded[o.context ?? '(none)'] ??= []).push(o.name);
    for (const names of Object.values(recorded)) names.sort();
    // Each context's recorded events are what kubectl lists in it, and each was shipped under its context.
    for (const context of ['east', 'west', 'south']) assert.deepEqual(recorded[context], await kubectlNames(context), context);
    assert.deepEqual(byCluster(await collector.readOutput()), recorded);
  } finally {
    await collector.close();
  }
});

test('a fleet record continued by the same contexts in another order: each resumes, nothing twice, nothing lost; other contexts are refused before any request', { timeout: 180_000 }, async () => {
  const file = join(dir, 'continued.jsonl');
  // Created and deleted before the first run: in no list, so never in the record (before the fix a
  // context resumed from its newest event's version, and the watch replayed this one into the second run).
  await kubectlOk(west.kubeconfig, ['create', '-f', '-'], JSON.stringify(event(ns.west as string, 'Vanished', 51)));
  await kubectlOk(west.kubeconfig, ['delete', 'event', '-n', ns.west as string, 'vanished-51']);
  const first = await evtimeline(['record', file, '--context', 'east,west,south', '--duration', '3s'], kubeconfig);
  assert.equal(first.code, 0, first.stderr);
  const before = versionKeys(file).length;
  // Written while no recorder runs: the next run must pick it up, from west's own resourceVersion.
  await kubectlOk(west.kubeconfig, ['create', '-f', '-'], JSON.stringify(event(ns.west as string, 'Meanwhile', 50)));
  const second = await evtimeline(['record', file, '--context', 'south,west,east', '--duration', '3s'], kubeconfig);
  assert.equal(second.code, 0, second.stderr);
  for (const context of ['south', 'west', 'east']) assert.match(second.stderr, new RegExp(`^context "${context}": continuing .*continued\\.jsonl \\(${before} observations\\) from resourceVersion \\d+$`, 'm'), context);
  assert.match(second.stderr, /^recorded \d+ lines? \(\d+ added, \d+ modified, \d+ deleted\) to .*continued\.jsonl; it holds \d+ observations$/m);
  const keys = versionKeys(file);
  // What the second run wrote (the clusters are shared with the other tests: more may have happened meanwhile).
  const added = keys.slice(before);
  assert.equal(new Set(keys).size, keys.length, `a version recorded twice; the second run wrote ${added.join(', ')}`);
  // Nothing lost: each context's rows read back hold every row kubectl events --context X prints now
  // (and may hold more: a record keeps what was deleted, and a context resumes from its last list's
  // version, so what the other tests wrote and deleted between the two runs is replayed into it).
  const read = await evtimeline(['--from', file], kubeconfig);
  assert.equal(read.code, 0, read.stderr);
  for (const context of ['east', 'west', 'south']) {
    const mine = rowsOfContext(read.stdout, context);
    for (const row of await kubectlEvents(context)) assert.ok(mine.includes(row), `${context}: ${row} is missing; the second run wrote ${added.join(', ')}`);
  }
  assert.ok(recordLines(file).observations.some((o) => o.context === 'west' && o.name === 'meanwhile-50'));
  assert.deepEqual(recordLines(file).observations.filter((o) => o.name === 'vanished-51'), []);
  // Other contexts: refused before any request (the server that never answers is never asked), the file unchanged.
  const text = readFileSync(file, 'utf8');
  let asked = 0;
  const count = () => (asked += 1);
  hang.on('connection', count);
  try {
    const other = await evtimeline(['record', file, '--context', 'east,west,hang', '--duration', '1s', '--request-timeout', '2s'], hangConfig);
    assert.equal(other.code, 2, other.stderr);
    assert.match(other.stderr, /was recorded from contexts "south" \(.+\), "west" \(.+\), "east" \(.+\), and this run reads contexts "east" \(.+\), "west" \(.+\), "hang" \(.+\): a record is continued by the same contexts only/);
  } finally {
    hang.off('connection', count);
  }
  assert.equal(asked, 0);
  assert.equal(readFileSync(file, 'utf8'), text);
});

test('--for deployment/web --tree in each cluster: every event is placed in its own cluster\'s tree, as kubectl sees the owners there', { timeout: 180_000 }, async () => {
  // A Deployment of the same name in two clusters: the real controllers make a ReplicaSet and Pods
  // in each, the real scheduler cannot place them (64 CPUs), so each tree has events at every level.
  const cps: Record<string, ControlPlane> = { east, west };
  const roots: Record<string, string> = {};
  const memberUids: Record<string, Set<string>> = {};
  for (const context of ['east', 'west']) {
    const cp = cps[context] as ControlPlane;
    const namespace = ns[context] as string;
    const deployment = await createDeployment(cp.kubeconfig, namespace, 'web', { replicas: 2, cpu: '64' });
    roots[context] = deployment.metadata.uid;
    const pods = async () => (await kubectlJSON<{ items: KubeObject[] }>(cp.kubeconfig, ['-n', namespace, 'get', 'pods', '-l', 'app=web'])).items;
    const deadline = Date.now() + 60_000;
    while ((await pods()).length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 500));
    await waitForUnschedulable(cp.kubeconfig, namespace, (await pods()).map((p) => p.metadata.name));
    // The tree as kubectl tells it: the Deployment, the ReplicaSets it owns, the Pods they own.
    const sets = (await kubectlJSON<{ items: KubeObject[] }>(cp.kubeconfig, ['-n', namespace, 'get', 'replicasets'])).items.filter((rs) => rs.metadata.ownerReferences?.some((o) => o.uid === deployment.metadata.uid));
    const setUids = new Set(sets.map((rs) => rs.metadata.uid));
    memberUids[context] = new Set([deployment.metadata.uid, ...setUids, ...(await pods()).filter((p) => p.metadata.ownerReferences?.some((o) => setUids.has(o.uid))).map((p) => p.metadata.uid)]);
  }
  /** The names of the events kubectl lists about the members of a context's tree. */
  const kubectlMembers = async (context: string) =>
    new Set((await listEvents((cps[context] as ControlPlane).kubeconfig, ns[context] as string)).filter((e) => memberUids[context]?.has(e.involvedObject.uid ?? '')).map((e) => e.metadata.name));
  const before = { east: await kubectlMembers('east'), west: await kubectlMembers('west') };
  const r = await evtimeline(['--context', 'east,west', '--for', 'deployment/web', '--tree', '-o', 'json'], kubeconfig);
  const after = { east: await kubectlMembers('east'), west: await kubectlMembers('west') };
  assert.equal(r.code, 0, r.stderr);
  const items = JSON.parse(r.stdout) as { name: string; context: string; tree: { uid: string }[] }[];
  for (const context of ['east', 'west'] as const) {
    const mine = new Set(items.filter((item) => item.context === context).map((item) => item.name));
    // What kubectl listed just before is there, and nothing kubectl did not list just after.
    for (const name of before[context]) assert.ok(mine.has(name), `${context}: ${name} is missing`);
    for (const name of mine) assert.ok(after[context].has(name), `${context}: ${name} is not in the tree kubectl sees`);
    assert.ok(mine.size >= 4, `${context}: ${[...mine].join(', ')}`);
    // Each chain begins at this cluster's Deployment, never at the other's of the same name.
    for (const item of items.filter((i) => i.context === context)) assert.equal(item.tree[0]?.uid, roots[context], `${context} ${item.name}`);
  }
  // incident and -w tell one tree: refused for several contexts, in one line.
  const incident = await evtimeline(['incident', '--context', 'east,west', '--for', 'deployment/web', '--tree'], kubeconfig);
  assert.equal(incident.code, 2);
  assert.match(incident.stderr, /incident --tree tells one tree, and each of several contexts has its own/);
});

test('a control plane stopped mid-test: one warning naming it, the others printed, exit 4', { timeout: 120_000 }, async () => {
  await south.stop();
  const r = await evtimeline(['--context', 'east,west,south'], kubeconfig);
  assert.equal(r.code, 4, r.stderr);
  const warnings = r.stderr.split('\n').filter((line) => line.startsWith('warning:'));
  assert.equal(warnings.length, 1, r.stderr);
  assert.match(warnings[0] ?? '', /^warning: context "south" \(https:\/\/127\.0\.0\.1:\d+\) did not answer, its events are not shown: cannot reach the API server at https:\/\/127\.0\.0\.1:\d+ \(context "south"\): ECONNREFUSED$/);
  assert.deepEqual(rowsOfContext(r.stdout, 'east'), await kubectlEvents('east'));
  assert.deepEqual(rowsOfContext(r.stdout, 'west'), await kubectlEvents('west'));
  assert.deepEqual(rowsOfContext(r.stdout, 'south'), []);
  // The incident says it did not answer, and still tells the others' story.
  const incident = await evtimeline(['incident', '--context', 'east,west,south'], kubeconfig);
  assert.equal(incident.code, 4, incident.stderr);
  assert.match(incident.stdout, /^ {2}3 contexts read together, 2 answered\. \d+ stor(y is|ies are) told in more than one cluster:$/m);
  assert.match(incident.stdout, /^ {2}BackOff on Pod\/web-<n>: in 2 of 2 clusters \(east, west\)\.$/m);
  assert.match(incident.stdout, /^ {2}south \(https:\/\/127\.0\.0\.1:\d+, namespace shop-south\): did not answer \(cannot reach the API server at .+ECONNREFUSED\); its events are not in this account\.$/m);
  // Alone, it is the plain error of one cluster: exit 1.
  const alone = await evtimeline(['--context', 'south'], kubeconfig);
  assert.equal(alone.code, 1);
});

test('--compare of a record of several contexts while one is down: said, its recorded events shown but not compared, exit 4', { timeout: 60_000 }, async () => {
  const file = join(dir, 'three.jsonl');
  const r = await evtimeline(['--from', file, '--compare', '-o', 'json'], kubeconfig);
  assert.equal(r.code, 4, r.stderr);
  assert.match(r.stderr, /^warning: context "south" \(https:\/\/127\.0\.0\.1:\d+\) did not answer, its recorded events are not compared: .*ECONNREFUSED$/m);
  const items = JSON.parse(r.stdout) as { context: string; onServer?: boolean }[];
  assert.ok(items.some((i) => i.context === 'south'));
  for (const item of items) assert.equal(item.onServer === undefined, item.context === 'south', item.context);
});

test('capture across contexts while one is down: said in one line, the others captured, exit 4', { timeout: 60_000 }, async () => {
  const folder = join(dir, 'capture-one-down');
  const r = await evtimeline(['capture', folder, '--context', 'east,south'], kubeconfig);
  assert.equal(r.code, 4, r.stderr);
  assert.match(r.stderr, /^warning: context "south" \(https:\/\/127\.0\.0\.1:\d+\) did not answer, its events are not shown: .*ECONNREFUSED$/m);
  const doc = JSON.parse(readFileSync(join(folder, 'events.json'), 'utf8')) as { coreContexts: string[] };
  assert.deepEqual([...new Set(doc.coreContexts)], ['east']);
  assert.deepEqual(rowsOfContext(readFileSync(join(folder, 'events-list.txt'), 'utf8'), 'east'), await kubectlEvents('east'));
});

test('export --otlp across contexts while one is down: one line naming it, the others sent to the collector, exit 4', { timeout: 600_000 }, async () => {
  if (!process.env.EVTIMELINE_TEST_OTELCOL_BINARY) await ensureOtelcol();
  const collector = await startCollector();
  try {
    const r = await evtimeline(['export', '--otlp', collector.url, '--context', 'east,south,west'], kubeconfig);
    assert.equal(r.code, 4, r.stderr);
    const warnings = r.stderr.split('\n').filter((line) => line.startsWith('warning:'));
    assert.equal(warnings.length, 1, r.stderr);
    assert.match(warnings[0] ?? '', /^warning: context "south" \(https:\/\/127\.0\.0\.1:\d+\) did not answer, its events are not sent: cannot reach the API server at .+ECONNREFUSED$/);
    await collector.stop('SIGTERM');
    assert.deepEqual(byCluster(await collector.readOutput()), { east: await kubectlNames('east'), west: await kubectlNames('west') });
  } finally {
    await collector.close();
  }
});

test('record across contexts with one down for the whole run: one line saying it never answered, the others recorded, exit 4', { timeout: 60_000 }, async () => {
  const file = join(dir, 'never.jsonl');
  const r = await evtimeline(['record', file, '--context', 'east,south', '--duration', '3s'], kubeconfig);
  assert.equal(r.code, 4, r.stderr);
  const warnings = r.stderr.split('\n').filter((line) => line.startsWith('warning:'));
  assert.deepEqual(warnings.length, 1, r.stderr);
  assert.match(warnings[0] ?? '', /^warning: context "south" \(https:\/\/127\.0\.0\.1:\d+\) never answered while recording, none of its events are in the record: .*ECONNREFUSED/);
  const { headers, observations } = recordLines(file);
  assert.deepEqual(headers.map((h) => (h.clusters as { context: string }[]).map((c) => c.context)), [['east', 'south']]);
  assert.deepEqual([...new Set(observations.map((o) => o.context))], ['east']);
  assert.deepEqual(observations.map((o) => o.name).sort(), await kubectlNames('east'));
});

test('--request-timeout applies to each cluster: one that never answers is left out, the others printed', { timeout: 60_000 }, async () => {
  const t0 = performance.now();
  const r = await evtimeline(['--context', 'hang,west', '--request-timeout', '2s'], hangConfig);
  const seconds = (performance.now() - t0) / 1000;
  assert.equal(r.code, 4, r.stderr);
  assert.match(r.stderr, /^warning: context "hang" \(http:\/\/127\.0\.0\.1:\d+\) did not answer, its events are not shown: .+$/m);
  assert.deepEqual(rowsOfContext(r.stdout, 'west'), await kubectlEvents('west'));
  assert.ok(seconds < 10, `took ${seconds.toFixed(1)} s`);
});

test('type-audit across clusters: one group names both clusters; each finding its context', { timeout: 60_000 }, async () => {
  // A type kubectl reads case-blind and an exact Warning match misses, written in two clusters.
  for (const [cp, context] of [[east, 'east'], [west, 'west']] as const) {
    const odd = { ...event(ns[context] as string, 'DiskFull', 9), type: 'warning', source: { component: 'disk-watcher' } };
    await kubectlOk(cp.kubeconfig, ['create', '-f', '-'], JSON.stringify(odd));
    // kubectl events --types=Warning lists it (strings.EqualFold): the audit's claim, on the real kubectl.
    assert.match(await kubectlOk(kubeconfig, ['events', '--context', context, '--types=Warning']), /DiskFull/);
  }
  const r = await evtimeline(['type-audit', '--context', 'east,west'], kubeconfig);
  assert.equal(r.code, 3, r.stderr);
  assert.match(r.stdout, /^ {2}2 events about 2 objects in 2 clusters \(east, west\): reason DiskFull, type warning, reported by disk-watcher, 2 times in all; for example east: /m);
  const json = await evtimeline(['type-audit', '--context', 'east,west', '-o', 'json'], kubeconfig);
  const doc = JSON.parse(json.stdout) as { findings: { kind: string; context: string; event: string }[] };
  assert.deepEqual(
    doc.findings.filter((f) => f.kind === 'unconventional-type').map((f) => `${f.context} ${f.event}`),
    [`east ${ns.east}/diskfull-9`, `west ${ns.west}/diskfull-9`],
  );
});

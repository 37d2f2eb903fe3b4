// Plays the lab (/work/shared/LAB.md, steps 1-7) against a real cluster with the real kubectl, in
// order, and leaves the lab's folder behind: the rendered manifests and the report files.
//
//   import { playLab } from './lab.ts';
//   const r = await playLab({ kubeconfig, namespace: 'op-events-x1', outDir });
//
// or from a shell:
//
//   node --import tsx test/harness/lab.ts --kubeconfig K [--namespace op-events] --out DIR [--kubectl PATH]
//
// The manifests are templates in test/fixtures/op-events with placeholders the player fills in:
// __NAMESPACE__, __UID__ (build-1's metadata.uid), __NOW__ (RFC 3339, whole seconds) and
// __NOW_MICRO__ (RFC 3339 with exactly six fractional digits). Each rendered manifest is written
// to outDir under its lab name and applied from there, as the lab does.
//
// Step 8 (timeline.txt, incident.txt) is the plugin's job: pass `step8` to run it after step 7.
//
// Replaying into a namespace that already exists (e.g. op-events itself) is allowed: the
// namespace's AlreadyExists is ignored and the lab's own objects from an earlier play (events
// build-1-started, build-1-weird, build-1-done, build-1-orphan, pod hungry and the events about
// pod hungry) are deleted first, so a replay leaves the same picture as a first play (and
// events.k8s.io/v1 forbids changing eventTime on an existing event anyway). Pipeline build-1 is
// kept (apply is idempotent), so its uid stays the same.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { waitFor } from './wait.ts';

export const LAB_FIXTURES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'op-events');
export const DEFAULT_LAB_NAMESPACE = 'op-events';
export const CRD_NAME = 'pipelines.ev.labhub.io';
/** How long step 7 waits for the scheduler's FailedScheduling event. */
// A hang guard, not a speed check: the scheduler answers in about 0.1 s; a loaded machine must never reach this.
export const SCHEDULER_DEADLINE_MS = 180_000;

/** The lab's report files, in the order the steps write them. */
export const REPORT_FILES = [
  'pipeline-uid.txt',
  'events-list.txt',
  'invalid-event.txt',
  'type-report.txt',
  'count-report.txt',
  'both-apis.txt',
  'scheduler-event.txt',
] as const;

export interface PlayLabOptions {
  /** Path of the kubeconfig; every kubectl runs with KUBECONFIG set to it. */
  kubeconfig: string;
  /** Namespace to play the lab in; default op-events. */
  namespace?: string;
  /** The lab's folder: rendered manifests and report files go here (created if missing). */
  outDir: string;
  /** kubectl to run; default `kubectl` on PATH. */
  kubectl?: string;
  /** Progress lines (one per kubectl call and step); default: silent. */
  log?: (line: string) => void;
  /** Step 8 (timeline.txt, incident.txt): run after step 7; returns the names of files it wrote in outDir. */
  step8?: Step8Hook;
}

export interface LabResult {
  namespace: string;
  outDir: string;
  /** Names (relative to outDir) of every file the play wrote, in the order written. */
  files: string[];
  /** metadata.uid of Pipeline build-1 (also in pipeline-uid.txt). */
  pipelineUid: string;
}

export interface KubectlResult {
  args: string[];
  code: number;
  stdout: string;
  stderr: string;
}

/** What step 8 gets to work with: the same kubectl, environment and folder the steps used. */
export interface LabContext {
  kubeconfig: string;
  namespace: string;
  outDir: string;
  kubectl: string;
  /** Environment every kubectl runs with (KUBECONFIG set, a per-play discovery cache). */
  env: NodeJS.ProcessEnv;
  pipelineUid: string;
  /** Runs kubectl; never throws on a non-zero exit. */
  run(args: string[]): Promise<KubectlResult>;
  /** Writes outDir/name atomically and records it in LabResult.files. */
  writeReport(name: string, text: string): Promise<void>;
  log(line: string): void;
}

export type Step8Hook = (ctx: LabContext) => Promise<string[] | void>;

export class LabStepError extends Error {
  constructor(
    readonly step: number,
    what: string,
    readonly result?: KubectlResult,
  ) {
    super(
      `lab step ${step}: ${what}` +
        (result
          ? `\n  $ kubectl ${result.args.join(' ')}\n  exit ${result.code}` +
            (result.stderr.trim() ? `\n  stderr: ${result.stderr.trim()}` : '') +
            (result.stdout.trim() ? `\n  stdout: ${result.stdout.trim()}` : '')
          : ''),
    );
    this.name = 'LabStepError';
  }
}

// ---------------------------------------------------------------------------------------------
// Time and templates

/** RFC 3339 in UTC with whole seconds, as first/lastTimestamp are written: 2026-11-30T12:00:00Z. */
export function rfc3339Seconds(ms: number = Date.now()): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** RFC 3339 in UTC with exactly six fractional digits (events.k8s.io/v1 eventTime, a MicroTime). */
export function rfc3339Micro(micros: number = Math.floor((performance.timeOrigin + performance.now()) * 1000)): string {
  const ms = Math.floor(micros / 1000);
  const frac = String(micros % 1_000_000).padStart(6, '0');
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, `.${frac}Z`);
}

/**
 * Reads test/fixtures/op-events/<name> and fills in its placeholders. Throws when the template
 * uses a placeholder that `vars` does not give (so a manifest is never applied half-filled).
 * Comment lines are dropped from the rendered text (they describe the template, not the object).
 */
export async function renderFixture(name: string, vars: Record<string, string>): Promise<string> {
  const template = await readFile(join(LAB_FIXTURES_DIR, name), 'utf8');
  const body = template
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .join('\n');
  const missing = new Set<string>();
  const out = body.replace(/__([A-Z][A-Z_]*[A-Z])__/g, (whole, key: string) => {
    const v = vars[key];
    if (v === undefined) {
      missing.add(whole);
      return whole;
    }
    return v;
  });
  if (missing.size > 0) throw new Error(`fixture ${name}: no value for ${[...missing].join(', ')}`);
  return out;
}

/** Writes dir/name through a temporary name in the same folder and a rename. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const tmp = join(dirname(path), `.${randomBytes(6).toString('hex')}.tmp-${process.pid}`);
  try {
    await writeFile(tmp, text, 'utf8');
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// kubectl

function runKubectl(kubectl: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 90_000): Promise<KubectlResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(kubectl, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${kubectl}: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const stderr = Buffer.concat(err).toString('utf8');
      resolvePromise({
        args,
        code: code ?? 128,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: signal ? `${stderr}${stderr && !stderr.endsWith('\n') ? '\n' : ''}(killed by ${signal} after ${timeoutMs} ms)\n` : stderr,
      });
    });
  });
}

/** stdout then stderr, as `cmd > file 2>&1` would leave them for a command that writes one then exits. */
function combined(r: KubectlResult): string {
  return r.stdout + r.stderr;
}

function names(stdout: string): string[] {
  return stdout
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean)
    .sort();
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// The lab

/** Plays steps 1-7 of the lab in order (then `step8` when given). See the header of this file. */
export async function playLab(opts: PlayLabOptions): Promise<LabResult> {
  const ns = opts.namespace ?? DEFAULT_LAB_NAMESPACE;
  const outDir = resolve(opts.outDir);
  const kubectl = opts.kubectl ?? 'kubectl';
  const log = opts.log ?? (() => {});
  const files: string[] = [];
  await mkdir(outDir, { recursive: true });

  // A discovery cache of our own: cached discovery of an earlier cluster that had the same
  // host:port (test clusters reuse ports) would otherwise hide the freshly created CRD.
  const cacheDir = await mkdtemp(join(tmpdir(), 'evtimeline-lab-kubecache-'));
  const env: NodeJS.ProcessEnv = { ...process.env, KUBECONFIG: opts.kubeconfig, KUBECACHEDIR: cacheDir };

  const run = async (args: string[]): Promise<KubectlResult> => {
    const t0 = performance.now();
    const r = await runKubectl(kubectl, args, env);
    log(`$ kubectl ${args.join(' ')}  -> exit ${r.code} (${Math.round(performance.now() - t0)} ms)`);
    return r;
  };
  const must = async (step: number, what: string, args: string[]): Promise<KubectlResult> => {
    const r = await run(args);
    if (r.code !== 0) throw new LabStepError(step, what, r);
    return r;
  };
  const writeReport = async (name: string, text: string): Promise<void> => {
    await writeFileAtomic(join(outDir, name), text.endsWith('\n') || text === '' ? text : `${text}\n`);
    if (!files.includes(name)) files.push(name);
  };
  /** Renders a fixture into outDir under its own name and returns its path (applied from there). */
  const manifest = async (name: string, vars: Record<string, string>): Promise<string> => {
    await writeReport(name, await renderFixture(name, { NAMESPACE: ns, ...vars }));
    return join(outDir, name);
  };

  try {
    // -- Step 1: target ----------------------------------------------------------------------
    log(`step 1: namespace ${ns}, CRD ${CRD_NAME}, Pipeline build-1`);
    const created = await run(['create', 'namespace', ns]);
    if (created.code !== 0) {
      if (!/AlreadyExists|already exists/.test(created.stderr)) {
        throw new LabStepError(1, `cannot create namespace ${ns}`, created);
      }
      log(`step 1: namespace ${ns} exists: removing the lab's objects from an earlier play`);
      await must(1, 'cannot delete the events of an earlier play', [
        '-n', ns, 'delete', 'events', 'build-1-started', 'build-1-orphan', 'build-1-weird', 'build-1-done',
        '--ignore-not-found',
      ]);
      await must(1, 'cannot delete pod hungry of an earlier play', [
        '-n', ns, 'delete', 'pod', 'hungry', '--ignore-not-found', '--wait=true', '--timeout=60s',
      ]);
      await must(1, "cannot delete the scheduler's events about pod hungry of an earlier play", [
        '-n', ns, 'delete', 'events', '--field-selector', 'involvedObject.kind=Pod,involvedObject.name=hungry',
        '--ignore-not-found',
      ]);
    }
    const crdPath = await manifest('pipeline-crd.yaml', {});
    // The CRD is the cluster's, not the namespace's: a lab played at the same moment in another
    // namespace (integration files run side by side) may create it between kubectl apply's GET
    // and its POST, which then fails AlreadyExists; applied again, it is a patch.
    const crd = await run(['apply', '-f', crdPath]);
    if (crd.code !== 0 && !/AlreadyExists|already exists/.test(crd.stderr)) throw new LabStepError(1, `cannot apply the CRD ${CRD_NAME}`, crd);
    if (crd.code !== 0) await must(1, `cannot apply the CRD ${CRD_NAME}`, ['apply', '-f', crdPath]);
    await must(1, `CRD ${CRD_NAME} did not become Established`, [
      'wait', '--for=condition=Established', `crd/${CRD_NAME}`, '--timeout=60s',
    ]);
    const pipelinePath = await manifest('pipeline-build1.yaml', {});
    // Established means served, but discovery can lag a moment behind it: retry a NoKindMatch.
    for (const deadline = Date.now() + 30_000; ; ) {
      const r = await run(['apply', '-f', pipelinePath]);
      if (r.code === 0) break;
      if (Date.now() > deadline || !/no matches for kind|ensure CRDs are installed|could not find the requested resource/i.test(r.stderr)) {
        throw new LabStepError(1, 'cannot apply Pipeline build-1', r);
      }
      await sleep(250);
    }
    const uidOut = await must(1, 'cannot read the uid of Pipeline build-1', [
      '-n', ns, 'get', `${CRD_NAME}/build-1`, '-o', 'jsonpath={.metadata.uid}',
    ]);
    const pipelineUid = uidOut.stdout.trim();
    if (!pipelineUid || /\s/.test(pipelineUid)) {
      throw new LabStepError(1, `unexpected uid of Pipeline build-1: ${JSON.stringify(uidOut.stdout)}`);
    }
    await writeReport('pipeline-uid.txt', `${pipelineUid}\n`);

    // -- Step 2: first word ------------------------------------------------------------------
    log('step 2: core/v1 Event build-1-started');
    const startedPath = await manifest('event-started.yaml', { UID: pipelineUid, NOW: rfc3339Seconds() });
    await must(2, 'cannot apply Event build-1-started', ['apply', '-f', startedPath]);
    const list = await must(2, 'kubectl events failed', ['-n', ns, 'events']);
    await writeReport('events-list.txt', combined(list));

    // -- Step 3: no target, no event ---------------------------------------------------------
    log('step 3: Event build-1-orphan without involvedObject (expected to be rejected)');
    const badPath = await manifest('event-bad.yaml', { NOW: rfc3339Seconds() });
    const bad = await run(['apply', '-f', badPath]);
    if (bad.code === 0) log('step 3: WARNING: the server accepted build-1-orphan');
    await writeReport('invalid-event.txt', `apply-rc=${bad.code}\n${bad.stderr}${bad.stdout}`);

    // -- Step 4: an unconventional type disappears from tools -------------------------------
    log('step 4: Event build-1-weird with type Critical');
    const weirdPath = await manifest('event-weird.yaml', { UID: pipelineUid, NOW: rfc3339Seconds() });
    await must(4, 'cannot apply Event build-1-weird (type Critical)', ['apply', '-f', weirdPath]);
    const critical = await run(['-n', ns, 'events', '--types=Critical']);
    const warning = await run(['-n', ns, 'events', '--types=Warning']);
    await writeReport(
      'type-report.txt',
      [
        `$ kubectl -n ${ns} events --types=Critical`,
        `critical-rc=${critical.code}`,
        combined(critical).trimEnd(),
        '',
        `$ kubectl -n ${ns} events --types=Warning`,
        `warning-rc=${warning.code}`,
        combined(warning).trimEnd(),
        '',
      ].join('\n'),
    );

    // -- Step 5: a repeat is not a new event -------------------------------------------------
    log('step 5: count 5 on build-1-started');
    await must(5, 'cannot patch Event build-1-started', [
      '-n', ns, 'patch', 'event', 'build-1-started', '--type=merge',
      '-p', JSON.stringify({ count: 5, lastTimestamp: rfc3339Seconds() }),
    ]);
    const counted = await must(5, 'kubectl events failed', ['-n', ns, 'events']);
    await writeReport('count-report.txt', combined(counted));

    // -- Step 6: two APIs, one store ---------------------------------------------------------
    log('step 6: events.k8s.io/v1 Event build-1-done');
    const donePath = await manifest('event-done.yaml', { UID: pipelineUid, NOW_MICRO: rfc3339Micro() });
    await must(6, 'cannot apply events.k8s.io/v1 Event build-1-done', ['apply', '-f', donePath]);
    const nameList = 'jsonpath={range .items[*]}{.metadata.name}{"\\n"}{end}';
    const core = await must(6, 'cannot list events through core/v1', ['-n', ns, 'get', 'events', '-o', nameList]);
    const fresh = await must(6, 'cannot list events through events.k8s.io/v1', [
      '-n', ns, 'get', 'events.events.k8s.io', '-o', nameList,
    ]);
    await writeReport(
      'both-apis.txt',
      [...names(core.stdout).map((n) => `core: ${n}`), ...names(fresh.stdout).map((n) => `new: ${n}`)].join('\n') + '\n',
    );

    // -- Step 7: a real controller speaks ----------------------------------------------------
    log('step 7: pod hungry (requests.cpu 64), waiting for the scheduler');
    const hungryPath = await manifest('hungry-pod.yaml', {});
    // kube-controller-manager's serviceaccount controller gives a new namespace its `default`
    // account; until it has, the ServiceAccount admission plugin rejects every pod.
    await waitFor(`ServiceAccount ${ns}/default`, async () => (await run(['-n', ns, 'get', 'serviceaccount', 'default', '-o', 'name'])).code === 0);
    await must(7, 'cannot apply pod hungry', ['apply', '-f', hungryPath]);
    const podUid = (
      await must(7, 'cannot read the uid of pod hungry', ['-n', ns, 'get', 'pod', 'hungry', '-o', 'jsonpath={.metadata.uid}'])
    ).stdout.trim();
    // Poll for the event about THIS pod (by uid): a replay must not be fooled by an earlier one.
    const t0 = Date.now();
    const deadline = t0 + SCHEDULER_DEADLINE_MS;
    let last: KubectlResult | undefined;
    for (;;) {
      last = await run([
        '-n', ns, 'get', 'events', '--field-selector', `reason=FailedScheduling,involvedObject.uid=${podUid}`,
        '-o', 'jsonpath={.items[*].metadata.name}',
      ]);
      if (last.code === 0 && last.stdout.trim() !== '') break;
      if (Date.now() >= deadline) {
        throw new LabStepError(
          7,
          `no FailedScheduling event for pod hungry (uid ${podUid}) within ${SCHEDULER_DEADLINE_MS / 1000} s ` +
            '(is a kube-scheduler running, with a node that cannot fit 64 CPUs?)',
          last,
        );
      }
      await sleep(300);
    }
    log(`step 7: FailedScheduling after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const sched = await must(7, 'cannot list the FailedScheduling events', [
      '-n', ns, 'get', 'events', '--field-selector', 'reason=FailedScheduling', '-o', 'wide',
    ]);
    await writeReport('scheduler-event.txt', combined(sched));

    // -- Step 8: the plugin's own verbs (wired by the caller) -------------------------------
    if (opts.step8) {
      log('step 8: timeline and incident');
      const extra = await opts.step8({
        kubeconfig: opts.kubeconfig,
        namespace: ns,
        outDir,
        kubectl,
        env,
        pipelineUid,
        run,
        writeReport,
        log,
      });
      for (const f of extra ?? []) if (!files.includes(f)) files.push(f);
    }

    return { namespace: ns, outDir, files, pipelineUid };
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// CLI

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      kubeconfig: { type: 'string' },
      namespace: { type: 'string', default: DEFAULT_LAB_NAMESPACE },
      out: { type: 'string' },
      kubectl: { type: 'string' },
      quiet: { type: 'boolean', short: 'q', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  const usage =
    'usage: node --import tsx test/harness/lab.ts --kubeconfig KUBECONFIG [--namespace op-events] --out DIR [--kubectl PATH] [--quiet]\n';
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  const kubeconfig = values.kubeconfig ?? process.env.KUBECONFIG;
  if (!kubeconfig || !values.out) {
    process.stderr.write(`lab: --kubeconfig (or $KUBECONFIG) and --out are required\n${usage}`);
    return 2;
  }
  const result = await playLab({
    kubeconfig,
    namespace: values.namespace,
    outDir: values.out,
    kubectl: values.kubectl,
    log: values.quiet ? undefined : (line) => process.stderr.write(`lab: ${line}\n`),
  });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`lab: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}

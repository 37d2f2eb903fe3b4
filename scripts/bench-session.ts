// What a benchmark's main() does around its measurements: read its `--flag value` arguments, keep
// a work folder (the plugins linked first on PATH, a HOME of its own for kubectl's discovery cache),
// start and stop a private control plane, and clean all of it up at the end, on an error and on
// Ctrl-C / SIGTERM.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { Api, capture } from './bench-api.ts';
import { onPath } from './bench-measure.ts';
import { PLUGIN_BINARY } from '../test/harness/plugin.ts';
import { startControlPlane, type ControlPlane, type ControlPlaneOptions } from '../test/harness/controlplane.ts';

/** --kubectl, else kubectl on PATH; --plugin, else the built dist/kubectl-evtimeline; both must exist. */
export function chooseBinaries(kubectl: string | undefined, plugin: string | undefined): { kubectl: string; plugin: string } {
  const found = kubectl ?? onPath('kubectl');
  if (!found) throw new Error('no kubectl on PATH: pass --kubectl PATH');
  const built = plugin ?? PLUGIN_BINARY;
  if (!existsSync(built)) throw new Error(`${built} is missing (npm run build makes dist/kubectl-evtimeline)`);
  return { kubectl: found, plugin: built };
}

/** Handles one flag; false: the script does not know it. */
export type FlagHandler = (flag: string, value: () => string, whole: (min: number) => number) => boolean;

/** Reads `--flag value` and `--flag=value` arguments, in order. */
export function readFlags(argv: string[], script: string, on: FlagHandler): void {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    const eq = arg.indexOf('=');
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    const value = (): string => {
      const v = eq < 0 ? argv[++i] : arg.slice(eq + 1);
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    const whole = (min: number): number => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < min) throw new Error(`${flag} must be a whole number of at least ${min}`);
      return n;
    };
    if (!on(flag, value, whole)) throw new Error(`unknown argument ${arg} (see the comment at the top of scripts/${script}.ts)`);
  }
}

export class Workspace {
  /** the control plane, while one runs */
  cp: ControlPlane | undefined;
  api: Api | undefined;
  /** PATH: the linked plugins, then kubectl's folder; HOME: the work folder; KUBECONFIG once a control plane runs */
  readonly env: NodeJS.ProcessEnv;
  private closing: Promise<void> | undefined;

  private constructor(
    readonly dir: string,
    private readonly bin: string,
    kubectl: string,
  ) {
    this.env = { PATH: [bin, dirname(kubectl), '/usr/bin', '/bin'].join(delimiter), HOME: dir };
  }

  /** A fresh work folder, removed (with the control plane stopped) by close() or on a signal. */
  static async open(script: string, kubectl: string): Promise<Workspace> {
    const dir = await mkdtemp(join(tmpdir(), `evtimeline-${script}-`));
    const bin = join(dir, 'bin');
    await mkdir(bin);
    const ws = new Workspace(dir, bin, kubectl);
    const onSignal = (signal: NodeJS.Signals): void => {
      process.stderr.write(`\n${script}: ${signal}\n`);
      void ws.close().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    return ws;
  }

  /** `kubectl <name>` runs the executable (kubectl-<name> on PATH); prints which build it is. */
  async link(binary: string, name: string, kubectl: string): Promise<void> {
    await symlink(binary, join(this.bin, `kubectl-${name}`));
    console.log(`${name}: ${(await capture([kubectl, name, '--version'], this.env)).trim()} (${binary})`);
  }

  /** A private control plane (`what` says which parts, for the progress line), KUBECONFIG set to it. */
  async startControlPlane(what: string, opts: ControlPlaneOptions = {}): Promise<{ cp: ControlPlane; api: Api }> {
    process.stderr.write(`starting the control plane (${what})...\n`);
    const cp = await startControlPlane(opts);
    const api = new Api(cp);
    [this.cp, this.api] = [cp, api];
    this.env.KUBECONFIG = cp.kubeconfig;
    console.log(`server:  Kubernetes ${cp.kubernetesVersion}, etcd ${cp.etcdVersion}, started in ${cp.startupSeconds.toFixed(1)} s`);
    return { cp, api };
  }

  async stopControlPlane(): Promise<void> {
    this.api?.close();
    this.api = undefined;
    if (this.cp) {
      process.stderr.write('stopping the control plane...\n');
      await this.cp.stop();
      this.cp = undefined;
    }
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.stopControlPlane();
      await rm(this.dir, { recursive: true, force: true });
    })();
    return this.closing;
  }
}

// Runs the built plugin the way users do, with a folder holding only kubectl-evtimeline (and its
// completion helper) first on PATH. `kubectl(['evtimeline', ...])` goes through kubectl's plugin
// mechanism; `evtimeline([...])` runs what that mechanism runs: kubectl (1.32) finds
// kubectl-evtimeline on PATH and execs it in its own place, with the arguments after the plugin's
// name and the environment unchanged (the same process, so the same stdio, signals and exit code).
// The suite runs the plugin some 500 times, and a kubectl start before each cost about 0.1 s of CPU
// on the 2-core machine; test/integration/outputs.test.ts holds the two ways equal, byte for byte.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const PLUGIN_BINARY = join(ROOT, 'dist', 'kubectl-evtimeline');
export const COMPLETION_SCRIPT = join(ROOT, 'dist', 'kubectl_complete-evtimeline');

let binDir: string | undefined;

/** A folder holding links to the built executables: dist/ itself also holds the .cjs bundle, which kubectl would list. */
export function pluginBinDir(): string {
  if (binDir) return binDir;
  if (!existsSync(PLUGIN_BINARY)) throw new Error(`${PLUGIN_BINARY} is missing: run npm run build first`);
  const dir = mkdtempSync(join(tmpdir(), 'evtimeline-bin-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  symlinkSync(PLUGIN_BINARY, join(dir, 'kubectl-evtimeline'));
  if (existsSync(COMPLETION_SCRIPT)) symlinkSync(COMPLETION_SCRIPT, join(dir, 'kubectl_complete-evtimeline'));
  binDir = dir;
  return dir;
}

export function pluginEnv(kubeconfig: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, KUBECONFIG: kubeconfig, PATH: `${pluginBinDir()}${delimiter}${process.env.PATH ?? ''}`, ...extra };
  delete env.FORCE_COLOR;
  delete env.NO_COLOR;
  return env;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `kubectl <args>` with the plugin on PATH; never throws on a non-zero exit. */
export function kubectl(args: string[], kubeconfig: string, opts: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<RunResult> {
  return run('kubectl', args, kubeconfig, opts);
}

function run(command: string, args: string[], kubeconfig: string, opts: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string }): Promise<RunResult> {
  return new Promise((resolvePromise) => {
    const child = execFile(
      command,
      args,
      { env: pluginEnv(kubeconfig, opts.env), cwd: opts.cwd, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolvePromise({ code, stdout, stderr });
      },
    );
    // A process that exits before reading its stdin closes the pipe: its exit code and stderr say why, not EPIPE.
    child.stdin?.on('error', () => {});
    child.stdin?.end(opts.input ?? '');
  });
}

/** `kubectl evtimeline <args>` as kubectl runs it: kubectl-evtimeline from PATH, exec'd with these arguments (see the header). */
export function evtimeline(args: string[], kubeconfig: string, opts: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<RunResult> {
  return run(join(pluginBinDir(), 'kubectl-evtimeline'), args, kubeconfig, opts);
}

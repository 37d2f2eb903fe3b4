// `npm run package`'s second half (scripts/package.mjs: every platform's executable and archive, the
// filled krew manifest) run by the integration runner beside its tests, once build.mjs has made this
// machine's executable, which is all the other files run (archives.ts says why). Its lines are
// printed in one piece when it ends.
import { spawn } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Packaging {
  /** Resolves with whether it passed, once the status file is written. */
  done: Promise<boolean>;
  stop(): void;
}

/** Starts scripts/package.mjs; when it ends, writes `ok` or why not to `statusFile` (whole, by a rename). */
export function packageBeside(root: string, statusFile: string): Packaging {
  const started = performance.now();
  const child = spawn(process.execPath, [join(root, 'scripts', 'package.mjs')], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  child.stdout.on('data', (d: Buffer) => out.push(d));
  child.stderr.on('data', (d: Buffer) => out.push(d));
  const done = new Promise<boolean>((resolve) => {
    let ended = false;
    const end = (said: string) => {
      if (ended) return;
      ended = true;
      const seconds = (performance.now() - started) / 1000;
      const ok = said === 'ok';
      writeFileSync(`${statusFile}.tmp`, said);
      renameSync(`${statusFile}.tmp`, statusFile);
      process.stdout.write(`\nintegration: npm run package, beside the tests, ${ok ? 'passed' : 'FAILED'} in ${seconds.toFixed(0)} s:\n${Buffer.concat(out).toString()}`);
      resolve(ok);
    };
    child.once('error', (err) => end(`scripts/package.mjs did not start: ${err.message}`));
    child.once('exit', (code, signal) => {
      const last = Buffer.concat(out).toString().trim().split('\n').at(-1) ?? '';
      end(code === 0 ? 'ok' : `scripts/package.mjs ${signal === null ? `exited ${code}` : `was stopped by ${signal}`}: ${last}`);
    });
  });
  return { done, stop: () => void child.kill('SIGTERM') };
}

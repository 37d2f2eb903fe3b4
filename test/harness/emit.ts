// Events written through client-go's own recorders by `controlplane emit`
// (test/controlplane/emit.go): what real operators produce, aggregation, spam filter and series
// included.
import { execFile } from 'node:child_process';
import type { ControlPlane } from './controlplane.ts';

export interface EmitOptions {
  recorder?: 'core' | 'events';
  kind: string;
  apiVersion?: string;
  name: string;
  namespace?: string;
  /** When absent, emit reads the live object and hands it to the recorder. */
  uid?: string;
  type?: string;
  reason: string;
  /** {n} is replaced by the occurrence number. */
  message?: string;
  action?: string;
  component?: string;
  instance?: string;
  count?: number;
  /** A Go duration between occurrences, e.g. '100ms'. */
  interval?: string;
}

export interface EmitReport {
  recorder: 'core/v1' | 'events.k8s.io/v1';
  emitted: number;
  creates: number;
  patches: number;
  errors: number;
  reportingInstance: string;
  regarding: { kind: string; name: string; namespace?: string; uid?: string; apiVersion?: string };
}

const FLAGS: [keyof EmitOptions, string][] = [
  ['recorder', 'recorder'], ['kind', 'kind'], ['apiVersion', 'api-version'], ['name', 'name'], ['namespace', 'namespace'],
  ['uid', 'uid'], ['type', 'type'], ['reason', 'reason'], ['message', 'message'], ['action', 'action'],
  ['component', 'component'], ['instance', 'instance'], ['count', 'count'], ['interval', 'interval'],
];

export function emitEvents(cp: ControlPlane, opts: EmitOptions): Promise<EmitReport> {
  const args = ['emit', `--kubeconfig=${cp.kubeconfig}`];
  for (const [key, flag] of FLAGS) if (opts[key] !== undefined) args.push(`--${flag}=${String(opts[key])}`);
  return new Promise((resolve, reject) => {
    execFile(cp.binary, args, { timeout: 300_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`controlplane ${args.join(' ')} failed: ${stderr.trim() || err.message}`));
      else resolve(JSON.parse(stdout) as EmitReport);
    });
  });
}

// Many plain core/v1 Events in one namespace, created through the API in parallel (bounded): enough
// for several list pages (500 each) in the tests that cut or hold a list part-way.
import type { ControlPlane } from '../harness/controlplane.ts';
import { eachLimited } from '../../src/core/bounded.ts';
import { api } from './cluster-api.ts';

/** Creates `n` events named e-00000.. about pods pod-e-00000.., each message padded to about `padding` words; returns their names. */
export async function postEvents(cp: ControlPlane, ns: string, n: number, opts: { component: string; reason: string; padding: number }): Promise<string[]> {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const names = Array.from({ length: n }, (_, i) => `e-${String(i).padStart(5, '0')}`);
  // Parallel, bounded: thousands of POSTs one by one would take minutes.
  await eachLimited(names, 32, async (name) => {
    await api(cp, 'POST', `/api/v1/namespaces/${ns}/events`, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace: ns },
      involvedObject: { apiVersion: 'v1', kind: 'Pod', name: `pod-${name}`, namespace: ns },
      reason: opts.reason,
      type: 'Normal',
      message: `${name} ${'padding '.repeat(opts.padding)}`,
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      source: { component: opts.component },
    });
  });
  return names;
}

// The lab's events on a cluster other test files share. Step 7's Pod hungry stays Pending, and while
// it does, any scheduled Pod deleted anywhere in the cluster sends it back to the scheduler
// (k8s.io/kubernetes v1.36.0 pkg/scheduler/framework/plugins/noderesources/fit.go:414-416: "any
// deletion event to a scheduled pod could make the unscheduled pod schedulable"). A retry after the
// scheduler's own status write (PodScheduled False) is a SECOND FailedScheduling object, not a
// repeat of the first: the events recorder keys repeats by `regarding`, resourceVersion included
// (k8s.io/client-go v0.36.3 tools/events/event_broadcaster.go:297-310). So alone on a cluster the
// lab has 4 events; beside other files, 4 or more (seen: two FailedScheduling objects about hungry,
// regarding resourceVersions 2077 and 2079, with the same note). Deleting the Pod ends the retries;
// a cycle already under way still writes its event (pkg/scheduler/schedule_one.go:1246-1289 records
// it for a Pod gone from the scheduler's cache), so this waits until the list stops changing.
import type { ControlPlane } from './controlplane.ts';
import { api, sleep, waitFor } from '../support/cluster-api.ts';

type Json = Record<string, any>;

/** The reasons of the lab's events about Pipeline build-1 (steps 2, 4, 6; step 5 repeats the first). */
const BUILD_REASONS = ['ReconcileStarted', 'ReconcileSucceeded', 'StageUnknown'];

/**
 * Deletes the lab's Pod hungry and returns the namespace's events once no more can come: the three
 * about Pipeline build-1 and one or more FailedScheduling about Pod hungry. Throws if anything
 * else is there.
 */
export async function labEventsAfterHungry(cp: ControlPlane, ns: string): Promise<Json[]> {
  await api(cp, 'DELETE', `/api/v1/namespaces/${ns}/pods/hungry`);
  const versions = (items: Json[]) => items.map((e) => `${e.metadata.uid}@${e.metadata.resourceVersion}`).sort().join(' ');
  let last = '';
  const items = await waitFor('the events of the lab to stop changing once Pod hungry is deleted', async () => {
    const list = (await api(cp, 'GET', `/api/v1/namespaces/${ns}/events`)).items as Json[];
    const now = versions(list);
    const quiet = now === last;
    last = now;
    if (!quiet) await sleep(1000);
    return quiet ? list : undefined;
  });
  const build = items.filter((e) => e.involvedObject.kind === 'Pipeline').map((e) => e.reason as string).sort();
  const scheduler = items.filter((e) => e.reason === 'FailedScheduling' && e.involvedObject.kind === 'Pod' && e.involvedObject.name === 'hungry');
  if (build.join() !== BUILD_REASONS.join() || scheduler.length === 0 || build.length + scheduler.length !== items.length) {
    throw new Error(`not the lab's events in ${ns}: ${items.map((e) => `${e.reason} ${e.involvedObject.kind}/${e.involvedObject.name}`).join(', ')}`);
  }
  return items;
}

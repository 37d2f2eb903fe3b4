// Following several contexts at once (-w, record with --context a,b, --contexts, --all-contexts): one
// stream of steps merged from each context's own follower (kube/watch.ts followEvents), each step
// labelled with the context it came from. Each follower lists, watches, resumes and retries on its
// own, so a cluster that drops or restarts is told (its notices name it) and picked up again while
// the others go on; one that gives up (refused, or too many failures in a row) is said and left out,
// and only when every one has given up does the merged stream fail, with the last one's error.
import type { EventCluster } from './event.ts';
import type { FleetMember, FollowOptions, FollowStep, Unanswered } from './source.ts';

export interface FollowedMember extends FleetMember {
  follow(opts: FollowOptions): AsyncIterable<FollowStep>;
}

interface Waiting {
  step: FollowStep;
  taken: () => void;
}

function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? '';
}

/**
 * The members' steps as one stream, in the order they arrive. A member hands over its next step only
 * once the merged stream's consumer took the last one (as a single follower does), so resuming any
 * member from the last step taken still loses nothing. `gaveUp` hears of a member that stopped.
 */
export async function* followMerged(members: FollowedMember[], opts: FollowOptions, gaveUp: (member: Unanswered) => void): AsyncGenerator<FollowStep> {
  const queue: Waiting[] = [];
  let wake: (() => void) | undefined;
  const poke = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  let running = members.length;
  const failures: unknown[] = [];
  for (const member of members) {
    const cluster: EventCluster = { context: member.context, server: member.server };
    const own: FollowOptions = {
      ...opts,
      resourceVersion: opts.resourceVersionOf?.(member.context) ?? opts.resourceVersion,
      notice: (notice) => opts.notice({ ...notice, context: member.context }),
      ...(opts.failed === undefined ? {} : { failed: (why: string) => opts.failed?.(`context "${member.context}": ${why}`, member.context) }),
    };
    void (async () => {
      try {
        for await (const step of member.follow(own)) {
          await new Promise<void>((taken) => {
            queue.push({ step: { ...step, cluster }, taken });
            poke();
          });
        }
      } catch (error) {
        failures.push(error);
        if (failures.length < members.length) gaveUp({ context: member.context, server: member.server, reason: reasonOf(error) });
      } finally {
        running--;
        poke();
      }
    })();
  }
  for (;;) {
    const next = queue.shift();
    if (next !== undefined) {
      yield next.step;
      next.taken();
      continue;
    }
    if (running === 0) break;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
  }
  // The last to stop is the one not said yet: the others were told as they stopped.
  if (failures.length === members.length && failures.length > 0) throw failures[failures.length - 1];
}

// `--for TYPE/NAME` against a live source: the TYPE resolved through the server's discovery, as
// `kubectl events --for` resolves it, so the filter names one Kind of one group. A saved input has
// no discovery: a bare TYPE is resolved in the same order among the groups its events name and the
// built-in Kinds (core/resources.ts resolveOffline); a TYPE naming its group is kept as typed
// (core/filter.ts matchesType).
import type { Event } from '../core/event.ts';
import { matchesKind } from '../core/filter.ts';
import type { EventFilter } from '../core/filter.ts';
import { resolveOffline, resolveResource } from '../core/resources.ts';
import type { Resolution } from '../core/resources.ts';
import type { EventSource } from '../core/source.ts';
import { RuntimeError, UsageError } from '../errors.ts';
import { escapeTerminal } from '../render/escape.ts';

export async function resolveFilter(source: EventSource, filter: EventFilter): Promise<EventFilter> {
  const { object } = filter;
  if (object === undefined || object.group !== undefined || source.discovery === undefined) return filter;
  return applyResolution(filter, resolveResource(object.kind, await source.discovery.served()));
}

/** A saved input's filter, once its events are read: a bare TYPE names one Kind of one group, as online. */
export function resolveSavedFilter(filter: EventFilter, events: Event[]): EventFilter {
  const { object } = filter;
  if (object === undefined || object.group !== undefined) return filter;
  const resolution = resolveOffline(object.kind, events.map((ev) => ev.object), matchesKind);
  return resolution === null ? filter : applyResolution(filter, resolution);
}

function applyResolution(filter: EventFilter, resolution: Resolution): EventFilter {
  const object = filter.object as NonNullable<EventFilter['object']>;
  switch (resolution.outcome) {
    case 'resolved': {
      const { group, kind } = resolution.target;
      return { ...filter, object: { kind, group, name: object.name } };
    }
    case 'unknown': {
      // kubectl's words (cmdutil.CheckErr on a meta.NoResourceMatchError), and its exit 1.
      const resource = escapeTerminal(resolution.resource);
      const group = resolution.group === '' ? '' : ` in group "${escapeTerminal(resolution.group)}"`;
      throw new RuntimeError(`the server doesn't have a resource type "${resource}"${group}`);
    }
    case 'ambiguous': {
      // kubectl would pick the group discovered first; two groups mixed in one story help nobody.
      const name = escapeTerminal(object.name);
      const choices = resolution.choices.map((c) => `${escapeTerminal(c)}/${name}`);
      throw new UsageError(`--for ${escapeTerminal(object.kind)}/${name} is ambiguous: "${escapeTerminal(resolution.resource)}" is served by more than one group; name one of ${choices.join(', ')}`);
    }
  }
}

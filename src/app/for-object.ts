// `--for TYPE/NAME` against a live source: the TYPE resolved through the server's discovery, as
// `kubectl events --for` resolves it, so the filter names one Kind of one group. A saved input has
// no discovery: its filter keeps the TYPE as typed (core/filter.ts matchesType).
import type { EventFilter } from '../core/filter.ts';
import { resolveResource } from '../core/resources.ts';
import type { EventSource } from '../core/source.ts';
import { RuntimeError, UsageError } from '../errors.ts';
import { escapeTerminal } from '../render/escape.ts';

export async function resolveFilter(source: EventSource, filter: EventFilter): Promise<EventFilter> {
  const { object } = filter;
  if (object === undefined || object.group !== undefined || source.discovery === undefined) return filter;
  const resolution = resolveResource(object.kind, await source.discovery.served());
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

// A discovery entry (core/resources.ts ServedResource) for unit tests: namespaced, get/list/watch unless told.
import type { ServedResource } from '../../src/core/resources.ts';

export const servedResource = (group: string, version: string, resource: string, kind: string, o: Partial<ServedResource> = {}): ServedResource => ({
  group,
  version,
  resource,
  kind,
  singular: '',
  shortNames: [],
  namespaced: true,
  verbs: ['get', 'list', 'watch'],
  ...o,
});

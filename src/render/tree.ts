// How `--tree` shows where an event sits: the owner chain as one OBJECT cell (table, wide), as data
// (-o json/yaml: a `tree` field), and its notices for stderr. The chain is written in full rather than
// indenting the last element: rows are in time order, so a row's parents are rarely the rows above it,
// and `Deployment/web > ReplicaSet/web-5d4 > Pod/web-5d4-x2k` reads alone (and greps).
import type { TreeNode } from '../core/ownership.ts';
import { formatQualifiedObjectRef } from '../core/timeline.ts';
import { MAX_TREE_DEPTH } from '../core/tree-grow.ts';
import { escapeTerminal } from './escape.ts';
import { plural } from './words.ts';

/** After a member that no longer exists (named by an owner's event, or seen in a saved file). */
const GONE_MARK = ' (gone)';

const SEPARATOR = ' > ';

/** `Deployment/web > ReplicaSet/web-5d4 > Pod/web-5d4-x2k (gone)`; raw: the table escapes the cell. */
export function formatChain(chain: readonly TreeNode[], shared: ReadonlySet<string>): string {
  return chain.map((n) => `${formatQualifiedObjectRef(n, shared)}${n.gone ? GONE_MARK : ''}`).join(SEPARATOR);
}

/** One member as -o json/yaml carries it. */
export interface JsonTreeNode {
  kind: string;
  apiVersion: string;
  name: string;
  uid: string;
  gone: boolean;
}

/** The chain as data: root first, the event's own object last. */
export function toJsonChain(chain: readonly TreeNode[]): JsonTreeNode[] {
  return chain.map((n) => ({ kind: n.kind, apiVersion: n.apiVersion, name: n.name, uid: n.uid, gone: n.gone }));
}

/** The resources the live listing had to leave out, in one stderr line. */
export function renderUnlistedNotice(unlisted: readonly { group: string; resource: string; code: number }[]): string {
  if (unlisted.length === 0) return '';
  const names = (code: number) =>
    unlisted
      .filter((u) => u.code === code)
      .map((u) => escapeTerminal(u.group === '' ? u.resource : `${u.resource}.${u.group}`))
      .sort();
  const parts = [
    [403, 'not allowed to list'],
    [404, 'no longer served'],
    [405, 'not listable'],
  ].flatMap(([code, why]) => {
    const list = names(code as number);
    return list.length === 0 ? [] : [`${why as string}: ${list.join(', ')}`];
  });
  return `warning: --tree left out ${plural(unlisted.length, 'resource')} (${parts.join('; ')}): their objects are not in the tree\n`;
}

/** A saved input that cannot tell who owns what; `messages` false: nor what the owners' events say (a stable table). */
export function renderNoOwnershipNotice(noun: string, messages = true): string {
  if (!messages) return `warning: ${noun} holds no ownership and no messages: the tree is the object alone (its children cannot be found)\n`;
  return `warning: ${noun} holds no ownership: the tree is only what the owners' events name (Created pod, Scaled up replica set, ...)\n`;
}

/** Objects below the tree's depth limit (core/tree.ts MAX_TREE_DEPTH): an ownership chain no controller makes. */
export function renderTooDeepNotice(): string {
  return `warning: --tree stops ${MAX_TREE_DEPTH} owners deep: what is owned below that is not in the tree (no controller makes a chain that long)\n`;
}

/** A capture's objects.json that is there but not taken (`why`: "is not JSON", "belongs to another capture", ...). */
/** Saved objects refused as no API server could have written them: one line, the first few reasons. */
export function renderRefusedSavedObjects(from: string, refused: string[]): string {
  if (refused.length === 0) return '';
  const shown = refused.slice(0, 3).join('; ') + (refused.length > 3 ? `; and ${refused.length - 3} more` : '');
  return `warning: ${escapeTerminal(from)}: refused ${refused.length === 1 ? 'a saved object' : `${refused.length} saved objects`} no API server could have written, read without them: ${escapeTerminal(shown)}\n`;
}

export function renderRefusedObjectsNotice(file: string, why: string): string {
  return `warning: ${escapeTerminal(file)} ${why}: the capture's ownership is not read\n`;
}

// The incident's "What happened" told owner first (`incident --for X --tree`): the root's story,
// then what it owns, each member indented under its owner, siblings with the same story told once,
// gone members marked. Within the same bound as the account told object by object: the root's story
// always, then the most telling stories until the section's budget is spent (their owners named
// above them, one line each), then how many more; --detail tells every object on its own.

import type { ObjectStory } from '../core/story.ts';
import { compareFamilies, groupStories } from '../core/families.ts';
import type { ObjectFamily } from '../core/families.ts';
import type { TreeNode } from '../core/ownership.ts';
import type { IncidentTree, StoryBranch } from '../core/tree-story.ts';
import type { Palette } from './color.ts';
import { familyBlock, objectBlock } from './incident-stories.ts';
import type { IncidentView } from './incident-stories.ts';
import { escapeOrNone, plural } from './words.ts';

/** What one story or family costs: its lines and the blank line after it. */
interface Told {
  family: ObjectFamily;
  /** the members above it, root first: named when it is told and they are not */
  owners: StoryBranch[];
  depth: number;
  lines: string[];
  /** the member whose own story this is; absent for a family of owned siblings */
  own?: StoryBranch;
}

/** `Deployment/web`, marked when gone. */
export function memberLabel(n: TreeNode): string {
  return `${escapeOrNone(n.kind)}/${escapeOrNone(n.name)}${n.gone ? ' (gone)' : ''}`;
}

function indent(lines: string[], depth: number): string[] {
  const pad = '  '.repeat(depth);
  return lines.map((l) => (l === '' ? l : `${pad}${l}`));
}

/** Every story of the tree in the order told: each member's own, then what it owns, depth first. */
function collect(branch: StoryBranch, owners: StoryBranch[], incident: IncidentView, palette: Palette, out: Told[]): void {
  const above = [...owners, branch];
  for (const story of branch.stories) {
    const family = groupStories([story])[0] as ObjectFamily;
    out.push({ family, owners, depth: branch.depth, lines: blockOf(family, incident, palette), own: branch });
  }
  for (const child of branch.children) {
    if (child.kind === 'branch') collect(child.branch, above, incident, palette, out);
    else if (incident.detail) {
      for (const story of child.family.members) {
        const alone = groupStories([story])[0] as ObjectFamily;
        out.push({ family: alone, owners: above, depth: branch.depth + 1, lines: blockOf(alone, incident, palette) });
      }
    } else out.push({ family: child.family, owners: above, depth: branch.depth + 1, lines: blockOf(child.family, incident, palette) });
  }
}

function blockOf(f: ObjectFamily, incident: IncidentView, palette: Palette): string[] {
  const text = incident.detail ? objectBlock(f.members[0] as ObjectStory, incident, palette) : familyBlock(f, incident, palette);
  return text.split('\n');
}

/** A member told only as the owner of what is told below it. */
function ownerLine(b: StoryBranch, palette: Palette): string {
  const uid = b.member.uid === '' ? '' : `uid ${escapeOrNone(b.member.uid)}; `;
  const events = b.stories.reduce((sum, s) => sum + s.reports.length, 0);
  const own = events === 0 ? 'no events of its own' : `${plural(events, 'event')} of its own, not told here`;
  return `${palette.bold(memberLabel(b.member))}${palette.dim(` (${uid}${own})`)}`;
}

export function treeSection(incident: IncidentView, tree: IncidentTree, palette: Palette, budget: number): string {
  const title = palette.bold(`What happened, owner first (${memberLabel(tree.root.member)} and what it owns)`);
  const all: Told[] = [];
  collect(tree.root, [], incident, palette, all);
  const chosen = new Set<Told>();
  // Members named so far: by their own story, or by the one line an owner gets above what it owns.
  const named = new Set<StoryBranch>();
  /** members one of whose own stories is told */
  const toldOwn = new Set<StoryBranch>();
  /** What telling `t` adds: its lines and a blank, a line and a blank for each owner not yet named, less the line it replaces. */
  const cost = (t: Told): number => {
    const headers = t.owners.filter((o) => !named.has(o)).length * 2;
    const replaces = t.own !== undefined && named.has(t.own) && !toldOwn.has(t.own) ? 2 : 0;
    return t.lines.length + 1 + headers - replaces;
  };
  let used = 0;
  const choose = (t: Told): void => {
    used += cost(t);
    chosen.add(t);
    if (t.own !== undefined) {
      named.add(t.own);
      toldOwn.add(t.own);
    }
    for (const o of t.owners) named.add(o);
  };
  // Owner first: the root's own story is always told; then the most telling until the budget is spent.
  for (const t of all) if (incident.detail || t.depth === 0) choose(t);
  for (const t of [...all].sort((a, b) => compareFamilies(a.family, b.family))) {
    if (chosen.has(t)) continue;
    if (chosen.size > 0 && used + cost(t) > budget) continue;
    choose(t);
  }
  const blocks: string[] = [];
  // An owner whose own story is told is named by it (told before what it owns); one that is not gets a line of its own.
  const shownOwners = new Set<StoryBranch>();
  for (const t of all) {
    if (!chosen.has(t)) continue;
    for (const o of t.owners) {
      if (!shownOwners.has(o)) blocks.push(indent([ownerLine(o, palette)], o.depth).join('\n'));
      shownOwners.add(o);
    }
    if (t.own !== undefined) shownOwners.add(t.own);
    blocks.push(indent(t.lines, t.depth).join('\n'));
  }
  const left = all.filter((t) => !chosen.has(t));
  if (left.length > 0) {
    const objects = left.reduce((sum, t) => sum + t.family.members.length, 0);
    blocks.push(`and ${plural(objects, 'more object')} like this (${plural(left.length, 'more story', 'more stories')}): --detail or -o json tells them all.`);
  }
  if (tree.outside.length > 0) blocks.push(outsideNote(tree, incident));
  return [title, ...blocks].join('\n\n');
}

/** Events about objects the tree does not hold (the input told them, the tree could not place them). */
function outsideNote(tree: IncidentTree, incident: IncidentView): string {
  const events = tree.outside.reduce((sum, o) => sum + o.reports.length, 0);
  const names = tree.outside.slice(0, incident.detail ? tree.outside.length : 5).map((o) => `${escapeOrNone(o.kind)}/${escapeOrNone(o.name)}`);
  const more = tree.outside.length > names.length ? `, and ${tree.outside.length - names.length} more` : '';
  return `Not in the tree: ${plural(events, 'event')} about ${names.join(', ')}${more}.`;
}

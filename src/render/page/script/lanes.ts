/// <reference lib="dom" />
// The lanes in the document: only the rows near the screen are there (virtual lanes). layout.ts
// knows where every row lies; render() puts in the rows that meet the window asked for (the screen
// and a screen either side, or every row on paper), in the order they are drawn, and takes out the
// others, so a page of 20,000 objects lays out about as many rows as a page of 40. The row that has
// focus stays wherever it is, so that the keyboard never loses its place.
// Nodes already in place are never moved (a moved node loses focus): new ones are inserted before
// the next one kept, which works because filtering and collapsing only ever remove rows from one
// fixed order.

import type { PageData, PageType } from '../../html-data.ts';
import { itemsBetween } from './layout.ts';
import type { Item, Layout } from './layout.ts';
import { el, plural, thousands, visible } from './text.ts';

/** A row that draws marks: a track row draws its track; a lane row draws all its lane's tracks while collapsed. */
export interface Row {
  lane: number;
  track: number | null;
  /** indices into data.events, by first seen */
  events: number[];
  /** px from the top of the rows (layout.ts) */
  y: number;
  h: number;
  /** its element while it is in the document */
  el: HTMLElement | null;
}

export interface LaneParts {
  data: PageData;
  typeName(type: PageType): string;
  laneTracks: number[][];
  trackEvents: number[][];
  laneRows: Row[];
  trackRows: Row[];
  collapsed(lane: number): boolean;
  toggle(lane: number): void;
  /** Left/Right and the like on a row (a collapsed lane's name included) */
  keydown(row: Row, e: KeyboardEvent): void;
  focus(row: Row): void;
  blur(row: Row): void;
}

/** Makes `container`'s children (those `ours` says are its rows) exactly `wanted`, in that order, moving none already there. */
function syncChildren(container: Element, wanted: Element[], ours: (node: Element) => boolean): void {
  const keep = new Set(wanted);
  let next = container.firstElementChild;
  const drop = (upTo: Element | null): void => {
    while (next !== null && next !== upTo) {
      const after: Element | null = next.nextElementSibling;
      if (ours(next) && !keep.has(next)) next.remove();
      next = after;
    }
  };
  for (const node of wanted) {
    if (node.parentElement === container) {
      drop(node);
      next = node.nextElementSibling;
    } else {
      container.insertBefore(node, next);
    }
  }
  drop(null);
}

export function laneRenderer(parts: LaneParts, container: HTMLElement): { render(layout: Layout, top: number, bottom: number): void } {
  const { data } = parts;
  const str = (i: number): string => data.strings[i] ?? '';
  // The last lane each owner owns: its connector closes the branch (└─), the others continue it (├─).
  const lastOwned = new Map<number, number>();
  data.lanes.forEach((l, i) => {
    if (l.owner !== null) lastOwned.set(l.owner, i);
  });
  function ownerDepth(lane: number): number {
    let depth = 0;
    for (let o = data.lanes[lane]?.owner ?? null; o !== null && depth < 20; o = data.lanes[o]?.owner ?? null) depth += 1;
    return depth;
  }

  const groupEls = new Map<number, { section: HTMLElement; lanes: HTMLElement }>();
  const laneEls = new Map<number, { box: HTMLElement; toggle: HTMLElement; tracks: HTMLElement }>();
  const trackEls = new Map<number, HTMLElement>();
  /** the row each row element is, to find the focused one */
  const rowOf = new WeakMap<Element, Row>();

  function groupEl(group: number): { section: HTMLElement; lanes: HTMLElement } {
    const known = groupEls.get(group);
    if (known !== undefined) return known;
    const info = data.groups[group];
    const section = el('section', 'group');
    const count = info?.lanes.length ?? 0;
    // Several contexts read together: each cluster's lanes under its context's name.
    const cluster = info?.context === undefined ? '' : `context ${visible(info.context)} \u00B7 `;
    section.append(el('h2', 'group-title', `${cluster}${info?.namespace ? `namespace ${visible(info.namespace)}` : 'cluster-scoped'} \u00B7 ${plural(count, 'object')}`));
    const lanes = el('div', 'group-lanes');
    section.append(lanes);
    const made = { section, lanes };
    groupEls.set(group, made);
    return made;
  }

  function laneEl(lane: number): { box: HTMLElement; toggle: HTMLElement; tracks: HTMLElement } {
    const known = laneEls.get(lane);
    if (known !== undefined) return known;
    const info = data.lanes[lane];
    const box = el('div', 'lane');
    box.setAttribute('role', 'group');
    const laneRowEl = el('div', 'row lane-row');
    const label = el('div', 'label');
    // --tree: each member under its owner, indented by its depth, with a connector to the owner above.
    const depth = ownerDepth(lane);
    label.style.paddingLeft = `${8 + depth * 16}px`;
    box.dataset.depth = String(depth);
    const ownedBy = info?.owner ?? null;
    if (depth > 0 && ownedBy !== null) label.append(el('span', 'connector', lastOwned.get(ownedBy) === lane ? '\u2514\u2500 ' : '\u251C\u2500 '));
    const toggle = el('button', 'toggle');
    toggle.type = 'button';
    const name = `${visible(info?.kind || '<none>')}/${visible(info?.name || '<none>')}`;
    // The name gives way (an ellipsis, the whole name on hover) before the badges after it do.
    const nameEl = el('span', 'name', name);
    nameEl.title = name;
    toggle.append(nameEl);
    const tracks = parts.laneTracks[lane] ?? [];
    const count = tracks.reduce((n, t) => n + (parts.trackEvents[t]?.length ?? 0), 0);
    // Unconventional types right after the name, where a narrow label still shows them.
    const odd = new Set(tracks.map((t) => data.tracks[t]?.[2] ?? 0).filter((t) => data.types[t]?.kind === 'unconventional'));
    for (const t of odd) {
      const type = data.types[t];
      if (type !== undefined) toggle.append(el('span', 'badge odd', parts.typeName(type)));
    }
    // What the live cluster said of the object (its name now belongs to another object, or it is
    // gone), before the counts, where a narrow label still shows it. The tree marks a member gone when only its owner's events, or a saved file, still name it.
    const incarnation = info?.incarnation === 'previous' ? 'previous incarnation' : info?.incarnation === 'gone' || info?.gone === true ? 'gone' : '';
    if (incarnation !== '') toggle.append(el('span', 'badge incarnation', incarnation));
    toggle.append(el('span', 'meta', `${plural(count, 'event')}${info?.uid ? ` \u00B7 uid ${visible(info.uid.slice(0, 8))}` : ''}`));
    const owner = info?.owner === null || info?.owner === undefined ? undefined : data.lanes[info.owner];
    box.setAttribute('aria-label', owner === undefined ? name : `${name}, owned by ${visible(owner.kind || '<none>')}/${visible(owner.name || '<none>')}`);
    label.append(toggle);
    laneRowEl.append(label, el('div', 'plot'));
    const trackBox = el('div', 'tracks');
    box.append(laneRowEl, trackBox);
    const row = parts.laneRows[lane] as Row;
    row.el = laneRowEl;
    rowOf.set(toggle, row);
    toggle.addEventListener('click', () => parts.toggle(lane));
    // A collapsed lane is one row of all its marks: Left/Right on its name step through them.
    toggle.addEventListener('keydown', (e) => {
      if (parts.collapsed(lane)) parts.keydown(row, e);
    });
    toggle.addEventListener('focus', () => {
      if (parts.collapsed(lane)) parts.focus(row);
    });
    toggle.addEventListener('blur', () => parts.blur(row));
    const made = { box, toggle, tracks: trackBox };
    laneEls.set(lane, made);
    return made;
  }

  function trackEl(track: number): HTMLElement {
    const made = trackEls.get(track);
    if (made !== undefined) return made;
    const tr = data.tracks[track] as [number, number, number];
    const type = data.types[tr[2]] as PageType;
    const rowEl = el('div', 'row track-row');
    rowEl.tabIndex = 0;
    const events = parts.trackEvents[track] ?? [];
    const reason = visible(str(tr[1])) || '(no reason)';
    rowEl.setAttribute('aria-label', `${reason}, type ${parts.typeName(type)}, ${plural(events.length, 'event')}`);
    const label = el('div', 'label');
    const depth = ownerDepth(tr[0]);
    if (depth > 0) label.style.paddingLeft = `${28 + depth * 16}px`;
    const reasonEl = el('span', 'reason', reason);
    reasonEl.title = reason;
    label.append(reasonEl);
    label.append(el('span', `badge ${type.kind === 'unconventional' ? 'odd' : type.kind === 'warning' ? 'warning' : ''}`, parts.typeName(type)));
    const total = events.reduce((n, i) => n + (data.events[i]?.[6] ?? 1), 0);
    if (total > events.length) label.append(el('span', 'count', `\u00D7${thousands(total)}`));
    rowEl.append(label, el('div', 'plot'));
    const row = parts.trackRows[track] as Row;
    row.el = rowEl;
    rowOf.set(rowEl, row);
    rowEl.addEventListener('keydown', (e) => parts.keydown(row, e));
    rowEl.addEventListener('focus', () => parts.focus(row));
    rowEl.addEventListener('blur', () => parts.blur(row));
    trackEls.set(track, rowEl);
    return rowEl;
  }

  /** The item of the row that has focus, if a row has it and it is still shown. */
  function focusedItem(layout: Layout): number | undefined {
    const active = document.activeElement;
    const row = active === null ? undefined : rowOf.get(active);
    if (row === undefined) return undefined;
    return row.track === null ? layout.laneItem.get(row.lane) : layout.trackItem.get(row.track);
  }

  const place = (node: HTMLElement, top: number, height: number): void => {
    const t = `${top}px`;
    const h = `${height}px`;
    if (node.style.top !== t) node.style.top = t;
    if (node.style.height !== h) node.style.height = h;
  };

  function render(layout: Layout, top: number, bottom: number): void {
    const [from, to] = itemsBetween(layout, top, bottom);
    const wanted: number[] = [];
    for (let i = from; i < to; i += 1) wanted.push(i);
    const pinned = focusedItem(layout);
    if (pinned !== undefined && (pinned < from || pinned >= to)) {
      wanted.push(pinned);
      wanted.sort((a, b) => a - b);
    }
    // What each group and lane holds in the window, in order.
    const groups: { item: Item; lanes: { item: Item; tracks: Item[] }[] }[] = [];
    for (const i of wanted) {
      const it = layout.items[i] as Item;
      let g = groups.at(-1);
      if (g === undefined || g.item.group !== it.group) {
        g = { item: layout.items[layout.groupItem.get(it.group) ?? i] as Item, lanes: [] };
        groups.push(g);
      }
      if (it.kind === 'group') continue;
      let l = g.lanes.at(-1);
      if (l === undefined || l.item.lane !== it.lane) {
        l = { item: layout.items[layout.laneItem.get(it.lane) ?? i] as Item, tracks: [] };
        g.lanes.push(l);
      }
      if (it.kind === 'track') l.tracks.push(it);
    }
    const sections = groups.map((g) => {
      const group = groupEl(g.item.group);
      place(group.section, g.item.y, g.item.extent);
      const boxes = g.lanes.map((l) => {
        const lane = laneEl(l.item.lane);
        place(lane.box, l.item.y - g.item.y, l.item.extent);
        const open = String(!parts.collapsed(l.item.lane));
        if (lane.toggle.getAttribute('aria-expanded') !== open) lane.toggle.setAttribute('aria-expanded', open);
        const rows = l.tracks.map((t) => {
          const rowEl = trackEl(t.track);
          const y = `${t.y - l.item.y - l.item.h}px`;
          if (rowEl.style.top !== y) rowEl.style.top = y;
          return rowEl;
        });
        syncChildren(lane.tracks, rows, () => true);
        return lane.box;
      });
      syncChildren(group.lanes, boxes, () => true);
      return group.section;
    });
    syncChildren(container, sections, (node) => node.classList.contains('group'));
    // Rows out of the document are made again when they come back: nothing grows as one scrolls.
    for (const [group, made] of groupEls) if (!made.section.isConnected) groupEls.delete(group);
    for (const [lane, made] of laneEls) {
      if (made.box.isConnected) continue;
      laneEls.delete(lane);
      (parts.laneRows[lane] as Row).el = null;
    }
    for (const [track, rowEl] of trackEls) {
      if (rowEl.isConnected) continue;
      trackEls.delete(track);
      (parts.trackRows[track] as Row).el = null;
    }
  }
  return { render };
}

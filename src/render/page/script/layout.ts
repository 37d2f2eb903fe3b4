// Where each row of the lanes lies, worked out from the model alone: every row has a fixed height
// (the stylesheet's --group-h, --lane-h, --row-h), so the page knows where all 40,000 rows of a
// 20,000-object page lie without laying out one of them, and puts in the document only those near
// the screen (lanes.ts). No DOM here: unit-tested in Node (test/unit/render/page/script/layout.test.ts).

export interface Sizes {
  group: number;
  lane: number;
  row: number;
}

/** A row of the lanes: a group's title, a lane's own row (its name), or one of its reason rows. */
export interface Item {
  kind: 'group' | 'lane' | 'track';
  group: number;
  lane: number;
  /** the track's index; -1 for a group title or a lane row */
  track: number;
  /** px from the top of the rows: the row itself is y .. y + h */
  y: number;
  h: number;
  /** px the row and everything under it take: a group's lanes, a lane's reason rows */
  extent: number;
}

export interface Layout {
  items: Item[];
  height: number;
  /** where each shown group's title, lane's row and track's row is in items */
  groupItem: Map<number, number>;
  laneItem: Map<number, number>;
  trackItem: Map<number, number>;
}

export interface Shown {
  groups: { lanes: number[] }[];
  /** each lane's tracks, in order */
  laneTracks: number[][];
  laneShown: (lane: number) => boolean;
  trackShown: (track: number) => boolean;
  collapsed: (lane: number) => boolean;
}

/** Every shown row, top to bottom: a group with a shown lane, its shown lanes, their shown tracks unless collapsed. */
export function layOut(shown: Shown, sizes: Sizes): Layout {
  const items: Item[] = [];
  const groupItem = new Map<number, number>();
  const laneItem = new Map<number, number>();
  const trackItem = new Map<number, number>();
  let y = 0;
  shown.groups.forEach((g, group) => {
    const lanes = g.lanes.filter(shown.laneShown);
    if (lanes.length === 0) return;
    const title: Item = { kind: 'group', group, lane: -1, track: -1, y, h: sizes.group, extent: 0 };
    groupItem.set(group, items.length);
    items.push(title);
    y += sizes.group;
    for (const lane of lanes) {
      const row: Item = { kind: 'lane', group, lane, track: -1, y, h: sizes.lane, extent: 0 };
      laneItem.set(lane, items.length);
      items.push(row);
      y += sizes.lane;
      if (!shown.collapsed(lane)) {
        for (const track of shown.laneTracks[lane] ?? []) {
          if (!shown.trackShown(track)) continue;
          trackItem.set(track, items.length);
          items.push({ kind: 'track', group, lane, track, y, h: sizes.row, extent: sizes.row });
          y += sizes.row;
        }
      }
      row.extent = y - row.y;
    }
    title.extent = y - title.y;
  });
  return { items, height: y, groupItem, laneItem, trackItem };
}

/** The indices [from, to) of the items whose own row meets top .. bottom (rows do not overlap, so a binary search finds the first). */
export function itemsBetween(layout: Layout, top: number, bottom: number): [number, number] {
  const { items } = layout;
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const it = items[mid] as Item;
    if (it.y + it.h <= top) lo = mid + 1;
    else hi = mid;
  }
  let to = lo;
  while (to < items.length && (items[to] as Item).y < bottom) to += 1;
  return [lo, to];
}

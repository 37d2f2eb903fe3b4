// The timeline page's stylesheet, inlined into the page (its hash is allowed by the page's CSP).
// Colours are custom properties so that light, dark and print share one set of rules; the page's
// script reads them back to paint the canvas. Unconventional types get a colour no other type uses.

export const PAGE_STYLE = `
:root {
  color-scheme: light;
  --bg: #ffffff; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --row: #f6f8fa; --grid: #e6e9ed;
  --normal: #2f6fd0; --warning: #c76a00; --odd: #c0007a; --odd-bg: #ffe3f3;
  --window: rgba(47, 111, 208, 0.07); --ttl: rgba(110, 118, 129, 0.22); --capture: #1a7f37; --focus: #0969da;
  --label-w: 360px; --row-h: 22px; --lane-h: 26px; --group-h: 30px;
  font: 13px/1.35 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif;
}
:root[data-theme="dark"] {
  color-scheme: dark;
  --bg: #0d1117; --fg: #e6edf3; --muted: #8d96a0; --line: #30363d; --row: #161b22; --grid: #21262d;
  --normal: #6ca4ff; --warning: #f0a040; --odd: #ff5cc8; --odd-bg: #4a1238;
  --window: rgba(108, 164, 255, 0.09); --ttl: rgba(139, 148, 158, 0.28); --capture: #3fb950; --focus: #58a6ff;
}
@media (prefers-color-scheme: dark) {
  :root:not([data-theme="light"]) {
    color-scheme: dark;
    --bg: #0d1117; --fg: #e6edf3; --muted: #8d96a0; --line: #30363d; --row: #161b22; --grid: #21262d;
    --normal: #6ca4ff; --warning: #f0a040; --odd: #ff5cc8; --odd-bg: #4a1238;
    --window: rgba(108, 164, 255, 0.09); --ttl: rgba(139, 148, 158, 0.28); --capture: #3fb950; --focus: #58a6ff;
  }
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; background: var(--bg); color: var(--fg); }
header, .controls, .legend { padding: 8px 16px; }
h1 { font-size: 18px; margin: 4px 0 6px; }
.headline { margin: 0 0 6px; padding: 0; list-style: none; }
.headline li { margin: 2px 0; overflow-wrap: anywhere; }
.headline li:first-child { font-weight: 600; }
.facts { color: var(--muted); margin: 2px 0; }
.why h2 { font-size: 15px; margin: 8px 0 2px; }
.causes { margin: 0 0 6px; padding-left: 18px; }
.cause { margin: 2px 0; overflow-wrap: anywhere; }
.cause-event { font: inherit; font-size: 12px; color: var(--focus); background: none; border: 1px solid var(--line); border-radius: 4px; padding: 0 4px; cursor: pointer; }
.controls { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: center; border-top: 1px solid var(--line); }
.controls button, .controls input { font: inherit; color: inherit; background: var(--row); border: 1px solid var(--line); border-radius: 5px; padding: 3px 8px; }
.controls button:hover { border-color: var(--focus); }
.range { font-variant-numeric: tabular-nums; }
fieldset { border: 1px solid var(--line); border-radius: 6px; margin: 0; padding: 4px 10px; display: flex; flex-wrap: wrap; gap: 4px 14px; }
legend { color: var(--muted); padding: 0 4px; }
.type-choice { display: inline-flex; align-items: center; gap: 5px; cursor: pointer; }
.type-choice.odd { background: var(--odd-bg); border-radius: 4px; padding: 0 5px; font-weight: 600; }
.note { color: var(--muted); font-weight: normal; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; color: var(--muted); }
.legend span { display: inline-flex; align-items: center; gap: 5px; }
.swatch-shade { display: inline-block; width: 22px; height: 12px; border: 1px solid var(--line); }
.swatch-shade.ttl { background: var(--ttl); }
.swatch-shade.window { background: var(--window); }
.swatch-line { display: inline-block; width: 3px; height: 14px; background: var(--capture); }
.chart { position: relative; border-top: 1px solid var(--line); }
.axis-row { position: sticky; top: 0; z-index: 3; display: flex; background: var(--bg); border-bottom: 1px solid var(--line); height: 40px; }
.axis-row .label { width: var(--label-w); flex: none; padding: 4px 8px; color: var(--muted); font-size: 12px; }
.axis { position: relative; flex: 1; overflow: hidden; }
.tick { position: absolute; bottom: 2px; transform: translateX(-50%); font-size: 11px; color: var(--muted); white-space: nowrap; font-variant-numeric: tabular-nums; }
.tick::before { content: ""; position: absolute; left: 50%; bottom: 15px; height: 6px; border-left: 1px solid var(--muted); }
.axis-note { position: absolute; top: 2px; font-size: 11px; white-space: nowrap; padding: 0 4px; }
.axis-note.ttl { color: var(--muted); }
.axis-note.capture { color: var(--capture); }
.rows { position: relative; }
.group-title { margin: 0; padding: 6px 8px; font-size: 13px; line-height: 17px; height: var(--group-h); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; background: var(--row); border-bottom: 1px solid var(--line); position: relative; z-index: 2; }
/* Virtual lanes: every row has a fixed height, so the script knows where each lies without laying it
   out, and only the rows near the screen are in the document, each placed where it lies. */
.group, .lane, .tracks, .track-row { position: absolute; left: 0; right: 0; }
.tracks { top: var(--lane-h); }
.row { display: flex; height: var(--row-h); border-bottom: 1px solid var(--grid); }
.row > .label { width: var(--label-w); flex: none; padding: 2px 8px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; position: relative; z-index: 2; background: var(--bg); border-right: 1px solid var(--line); }
.row > .plot { flex: 1; }
.lane-row { height: var(--lane-h); }
.lane-row > .label { font-weight: 600; display: flex; align-items: center; }
.lane-row > .label > .toggle { flex: 0 1 auto; min-width: 0; white-space: nowrap; display: inline-flex; align-items: center; }
.track-row > .label { padding-left: 28px; display: flex; align-items: center; }
/* A long name or reason is what gives way, never the type, gone or count after it; the counts (from a basis of 0) only take the room left. */
.toggle > .name, .track-row .reason { flex: 0 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.toggle > .meta { flex: 1 1 0; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.row > .label .badge, .row > .label .count, .toggle::before { flex: none; }
.track-row:focus { outline: 2px solid var(--focus); outline-offset: -2px; }
.toggle { font: inherit; color: inherit; background: none; border: 0; padding: 0; cursor: pointer; text-align: left; max-width: 100%; overflow: hidden; text-overflow: ellipsis; }
.toggle::before { content: "\\25BE "; display: inline-block; width: 1.1em; }
.toggle[aria-expanded="false"]::before { content: "\\25B8 "; }
.meta { color: var(--muted); font-weight: normal; margin-left: 6px; }
.connector { color: var(--muted); font-weight: normal; white-space: pre; flex: none; }
.badge { display: inline-block; font-size: 11px; padding: 0 5px; border-radius: 8px; margin-left: 6px; border: 1px solid var(--line); color: var(--muted); font-weight: normal; }
.badge.warning { color: var(--warning); border-color: var(--warning); }
.badge.incarnation { color: var(--warning); border-style: dashed; }
.badge.odd { color: #fff; background: var(--odd); border-color: var(--odd); font-weight: 700; }
.count { color: var(--muted); margin-left: 6px; }
.plot-layer { position: absolute; top: 0; bottom: 0; left: var(--label-w); right: 0; pointer-events: none; z-index: 1; overflow: hidden; }
.shade { position: absolute; top: 0; bottom: 0; }
.shade.ttl { background: repeating-linear-gradient(135deg, var(--ttl) 0 6px, transparent 6px 12px); border-right: 2px dashed var(--muted); }
.shade.window { background: var(--window); }
.vline { position: absolute; top: 0; bottom: 0; width: 0; border-left: 2px solid var(--capture); }
canvas.marks { position: absolute; left: 0; }
.tooltip { position: fixed; z-index: 10; max-width: min(560px, 90vw); background: var(--bg); color: var(--fg); border: 1px solid var(--line); border-radius: 6px; box-shadow: 0 4px 16px rgba(0,0,0,.25); padding: 8px 10px; font-size: 12px; pointer-events: none; white-space: pre-wrap; overflow-wrap: anywhere; }
.tooltip[hidden] { display: none; }
.tooltip .tt-type { font-weight: 700; }
.tooltip .tt-type.odd { color: var(--odd); }
.tooltip .tt-type.warning { color: var(--warning); }
.tooltip dl { display: grid; grid-template-columns: auto 1fr; gap: 1px 8px; margin: 4px 0 0; }
.tooltip dt { color: var(--muted); }
.tooltip dd { margin: 0; }
.hint { color: var(--muted); font-size: 12px; padding: 4px 16px 10px; }
.empty { padding: 16px; color: var(--muted); }
@media (max-width: 700px) { :root { --label-w: 160px; } }
@media print {
  :root { --bg: #fff; --fg: #000; --row: #f3f3f3; }
  .controls button, .controls input[type="search"], .hint, .tooltip, .theme { display: none; }
  .axis-row { position: static; }
  .row, .group-title { break-inside: avoid; }
}
`;

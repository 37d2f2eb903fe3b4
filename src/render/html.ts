// -o html: one self-contained page (inline CSS, script and SVG, no network) that draws the timeline.
// The page's data is JSON inside a `<script type="application/json">` element, which the browser never
// runs; its text is safe there because `<`, `>` and `&` are written as \u escapes, so no `</script>`
// or `<!--` can appear in it, and U+2028/U+2029 and every character a terminal acts on are escaped
// too (view-source and `less` show them as text). The Content-Security-Policy allows only the page's
// own script and style (by hash) and no fetch, image, font, frame or form target at all, so even text
// that got into the markup could neither run nor load anything.

import type { PageData } from './html-data.ts';
import { escapeTerminal } from './escape.ts';
import { escapeJsonUnsafe } from './json.ts';
import { pageScript } from './page/script.ts';
import { PAGE_STYLE } from './page/style.ts';

const SCRIPT_UNSAFE = /[<>&]/g;

/** JSON that can sit inside a script element and parses back to exactly `value`. */
export function toScriptJson(value: unknown): string {
  const json = escapeJsonUnsafe(JSON.stringify(value));
  return json.replace(SCRIPT_UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an HTML text or attribute position (the page's title is the only one). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

function sha256(text: string): string {
  // Loaded on first use: start-up of every other verb stays free of crypto (see src/io/atomic.ts).
  const { createHash } = process.getBuiltinModule('node:crypto');
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The policy: nothing but this page's own script and style; no requests of any kind. */
function contentSecurityPolicy(script: string, style: string): string {
  return [
    "default-src 'none'",
    `script-src ${sha256(script)}`,
    `style-src ${sha256(style)}`,
    "img-src 'none'",
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export function renderTimelineHtml(data: PageData, title = `Event timeline: ${data.scope}`): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(pageScript(), PAGE_STYLE))}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="kubectl evtimeline">
<title>${escapeHtml(escapeTerminal(title))}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<noscript><p>This page draws the timeline with its own inline script; it needs JavaScript, and nothing else.</p></noscript>
<main id="app"></main>
<script type="application/json" id="timeline-data">${toScriptJson(data)}</script>
<script>${pageScript()}</script>
</body>
</html>
`;
}

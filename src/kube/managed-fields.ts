// managedFields (server-side apply's field ownership, one entry per writer with a tree of every
// field it set) is most of an Event's JSON and most of the objects JSON.parse makes of it: for a
// page of 500 events, about 15 of each event's 22 objects. A reader that keeps only the
// normalised fields never looks at it, so its value is cut from the text before parsing.
//
// Only a real key is cut: in valid JSON a `"` that is not escaped (an even run of backslashes
// before it, here none: an escaped backslash right before a quote would end a string in front of
// a letter) starts a string, and one followed by `managedFields":[` is that key with an array
// value. A text that does not parse as expected is left whole, for JSON.parse to judge.

const KEY = '"managedFields":[';
const QUOTE = 34;
const BACKSLASH = 92;

/** The index of the quote that ends the string opened at `open`, or -1. */
function endOfString(json: string, open: number): number {
  for (let at = json.indexOf('"', open + 1); at >= 0; at = json.indexOf('"', at + 1)) {
    let slashes = 0;
    while (json.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes += 1;
    if (slashes % 2 === 0) return at;
  }
  return -1;
}

/** The index of the `]` that closes the array opened at `open`, or -1. */
function endOfArray(json: string, open: number): number {
  let depth = 0;
  for (let i = open; i < json.length; i += 1) {
    const c = json.charCodeAt(i);
    if (c === QUOTE) {
      i = endOfString(json, i);
      if (i < 0) return -1;
    } else if (c === 91 || c === 123) depth += 1;
    else if (c === 93 || c === 125) {
      depth -= 1;
      if (depth === 0) return c === 93 ? i : -1;
    }
  }
  return -1;
}

/** The JSON text with every `"managedFields":[...]` written `"managedFields":0` (the same text when it has none). */
export function withoutManagedFields(json: string): string {
  let at = json.indexOf(KEY);
  if (at < 0) return json;
  const parts: string[] = [];
  let from = 0;
  while (at >= 0) {
    if (json.charCodeAt(at - 1) === BACKSLASH) {
      // Inside a string (`\"managedFields":[`): text, not a key.
      at = json.indexOf(KEY, at + 1);
      continue;
    }
    const open = at + KEY.length - 1;
    const close = endOfArray(json, open);
    if (close < 0) return json;
    parts.push(json.slice(from, open), '0');
    from = close + 1;
    at = json.indexOf(KEY, from);
  }
  parts.push(json.slice(from));
  return parts.join('');
}

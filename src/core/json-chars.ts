// The JSON characters the two chunk-by-chunk splitters look for (src/kube/list-items.ts for API lists,
// src/otlp/request-pieces.ts for collector files), as char codes: both scan bytes without decoding a string.
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;

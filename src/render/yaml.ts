// -o yaml: the same document as -o json, written by the `yaml` package (eemeli/yaml, pinned) in
// YAML 1.1 mode, so that readers in Go (sigs.k8s.io/yaml, which kubectl uses) and PyYAML read back
// the same types: `yes`, `no`, `on`, `0123` and timestamps stay quoted strings.
// Like -o json, the text is safe on a terminal without changing any value: a string holding a
// character a terminal would act on is written double-quoted, where \uXXXX means that character.
import { Scalar, stringify } from 'yaml';

// The characters escapeTerminal (escape.ts) makes visible, and LF/TAB, which YAML would otherwise
// fold into block scalars.
const UNSAFE = /[\u0000-\u001f\u007f\u0080-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');

function quoteUnsafe(value: unknown): unknown {
  if (typeof value === 'string') {
    if (!UNSAFE.test(value)) return value;
    const scalar = new Scalar(value);
    scalar.type = Scalar.QUOTE_DOUBLE;
    return scalar;
  }
  if (Array.isArray(value)) return value.map(quoteUnsafe);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, quoteUnsafe(v)]));
  }
  return value;
}

function hex(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

export function toYamlText(value: unknown): string {
  // lineWidth 0: no folding, a message stays on one line as in -o json.
  const text = stringify(quoteUnsafe(value), { version: '1.1', lineWidth: 0 });
  // Only double-quoted scalars can hold these characters now, and there the escape is exact.
  return text.replace(UNSAFE_ALL, (ch) => (ch === '\n' ? ch : hex(ch)));
}

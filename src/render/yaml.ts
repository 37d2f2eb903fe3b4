// -o yaml: the same document as -o json, written by the `yaml` package (eemeli/yaml, pinned) in
// YAML 1.1 mode, so that readers in Go (sigs.k8s.io/yaml, which kubectl uses) and PyYAML read back
// the same types: `yes`, `no`, `on`, `0123` and timestamps stay quoted strings.
// Like -o json, the text is safe on a terminal without changing any value: a string holding a
// character a terminal would act on is written double-quoted, where \uXXXX means that character.
import { yamlLibrary } from '../chunk.ts';
import { hasUnsafe, replaceUnsafe } from './escape.ts';

type Yaml = typeof import('yaml');

function quoteUnsafe(value: unknown, Scalar: Yaml['Scalar']): unknown {
  if (typeof value === 'string') {
    // What escapeTerminal would change (LF and TAB among them, which YAML would otherwise fold into
    // block scalars): one list with the terminal and JSON writers.
    if (!hasUnsafe(value)) return value;
    const scalar = new Scalar(value);
    scalar.type = Scalar.QUOTE_DOUBLE;
    return scalar;
  }
  if (Array.isArray(value)) return value.map((v) => quoteUnsafe(v, Scalar));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, quoteUnsafe(v, Scalar)]));
  }
  return value;
}

/** A YAML double-quoted escape: \uXXXX, or \UXXXXXXXX beyond the Basic Multilingual Plane. */
function hex(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\U${code.toString(16).padStart(8, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

export function toYamlText(value: unknown): string {
  // lineWidth 0: no folding, a message stays on one line as in -o json.
  const { Scalar, stringify } = yamlLibrary();
  const text = stringify(quoteUnsafe(value, Scalar), { version: '1.1', lineWidth: 0 });
  // Only double-quoted scalars can hold these characters now, and there the escape is exact.
  return replaceUnsafe(text, (ch) => (ch === '\n' ? ch : hex(ch)));
}

// kubectl's jsonpath dialect (`-o jsonpath=...`), a port of k8s.io/client-go/util/jsonpath v0.36.3
// (parser.go, jsonpath.go) and the comparison rules of its forked text/template funcs. It is not
// RFC 9535 JSONPath: text outside {} is printed as is, {range}/{end} loop, `{"\n"}` is a quoted
// literal, results of one expression print space-separated, maps and lists print as compact JSON
// (keys sorted, <>& escaped, as Go's encoding/json does), and a filter compares only values of one
// Go kind (an int with a float is an error). Tested against the package's own test table and, on
// the same documents, against the package itself (test/controlplane jsonpath).
//
// The document is what kubectl's unstructured objects hold (apimachinery's util/json): a JSON
// number without a fraction is an int64, any other a float64, which decides how it prints and
// compares. Go iterates maps in random order; here they go in document order.

import { escapeTerminal } from '../escape.ts';
import { escapeJsonUnsafe } from '../json.ts';
import { JsonPathError } from './node.ts';
import type { ListNode, Node, Param } from './node.ts';
import { Parser } from './parser.ts';

// ---------------------------------------------------------------------------------------------
// Values. A JSON value, or one of Go's that JSON has no word for.

/** reflect.Value{}: what ranging over a null, or over nothing, hands the next action. */
const INVALID = Symbol('invalid');
/** A float64 literal of the template (`1.0` is a float there, while `1.0` in the document is an int64). */
class GoFloat {
  constructor(readonly value: number) {}
}
/** A uint8: a byte of a string, from `*` or `..` over a string. */
class GoByte {
  constructor(readonly value: number) {}
}

type Value = unknown;

function isMap(v: Value): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof GoFloat) && !(v instanceof GoByte);
}

function isInt(n: number): boolean {
  return Number.isInteger(n) && Math.abs(n) < 2 ** 63;
}

/** Go's Indirect: null (a nil interface) is nil. */
function isNil(v: Value): boolean {
  return v === null;
}

/** What Go's %v of value.Type() prints, for error messages. */
function goType(v: Value): string {
  if (v === INVALID) return '<nil>';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return isInt(v) ? 'int64' : 'float64';
  if (v instanceof GoFloat) return 'float64';
  if (v instanceof GoByte) return 'uint8';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

function children(v: Value): Value[] {
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') return [...new TextEncoder().encode(v)].map((b) => new GoByte(b));
  if (isMap(v)) return Object.values(v);
  return [];
}

type BasicKind = 'bool' | 'int' | 'uint' | 'float' | 'string';

function basicKind(v: Value): BasicKind {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return isInt(v) ? 'int' : 'float';
  if (v instanceof GoFloat) return 'float';
  if (v instanceof GoByte) return 'uint';
  if (typeof v === 'string') return 'string';
  throw new JsonPathError('invalid type for comparison'); // kubectl's wording (client-go third_party/forked/golang/template/funcs.go:12)
}

function scalar(v: Value): number | string | boolean {
  if (v instanceof GoFloat || v instanceof GoByte) return v.value;
  return v as number | string | boolean;
}

/** Go compares strings byte by byte (UTF-8), not by UTF-16 code unit. */
function compareStrings(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function goEqual(a: Value, b: Value): boolean {
  const ka = basicKind(a);
  const kb = basicKind(b);
  if (ka !== kb) {
    if ((ka === 'int' && kb === 'uint') || (ka === 'uint' && kb === 'int')) return scalar(a) === scalar(b);
    throw new JsonPathError('incompatible types for comparison'); // kubectl's wording (client-go third_party/forked/golang/template/funcs.go:13)
  }
  return scalar(a) === scalar(b);
}

function goLess(a: Value, b: Value): boolean {
  const ka = basicKind(a);
  const kb = basicKind(b);
  if (ka !== kb) {
    if ((ka === 'int' && kb === 'uint') || (ka === 'uint' && kb === 'int')) return (scalar(a) as number) < (scalar(b) as number);
    throw new JsonPathError('incompatible types for comparison'); // kubectl's wording (client-go third_party/forked/golang/template/funcs.go:13)
  }
  if (ka === 'bool') throw new JsonPathError('invalid type for comparison'); // kubectl's wording (client-go third_party/forked/golang/template/funcs.go:12)
  if (ka === 'string') return compareStrings(a as string, b as string) < 0;
  return (scalar(a) as number) < (scalar(b) as number);
}

function compare(operator: string, a: Value, b: Value): boolean {
  switch (operator) {
    case '<':
      return goLess(a, b);
    case '>':
      return !(goLess(a, b) || goEqual(a, b));
    case '==':
      return goEqual(a, b);
    case '!=':
      return !goEqual(a, b);
    case '<=':
      return goLess(a, b) || goEqual(a, b);
    case '>=':
      return !goLess(a, b);
    default:
      throw new JsonPathError(`unrecognized filter operator ${operator}`); // kubectl's wording (client-go util/jsonpath/jsonpath.go:557)
  }
}

// ---------------------------------------------------------------------------------------------
// Printing (PrintResults, evalToText) the way Go's fmt and encoding/json write values.

/** strconv.FormatFloat(f, 'g', -1, 64), which fmt's %v uses: 1e+06, 1.5, 1e-05. */
export function formatGoFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mantissa = '', expText = '0'] = f.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  // Shortest digits in positional notation; toString switches to exponents only below 1e-6.
  const digits = mantissa.replace('-', '').replace('.', '');
  const neg = f < 0 ? '-' : '';
  if (exp >= 0) {
    const whole = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
    const frac = digits.slice(exp + 1);
    return `${neg}${whole}${frac ? `.${frac}` : ''}`;
  }
  return `${neg}0.${'0'.repeat(-exp - 1)}${digits}`;
}

function goText(v: Value): string {
  if (v === INVALID) return '<no value>';
  if (v === null) return 'null';
  if (typeof v === 'number') return isInt(v) ? String(v) : formatGoFloat(v);
  if (v instanceof GoFloat) return formatGoFloat(v.value);
  if (v instanceof GoByte) return String(v.value);
  return String(v);
}

const GO_JSON_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

function goJsonString(s: string): string {
  // A lone surrogate is not valid UTF-8: Go writes U+FFFD for it.
  const wellFormed = s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
  return `"${wellFormed.replace(/["\\<>&\u0000-\u001f\u2028\u2029]/g, (c) => GO_JSON_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

function goJsonNumber(n: number): string {
  if (!Number.isFinite(n)) throw new JsonPathError(`json: unsupported value: ${formatGoFloat(n)}`);
  // encoding/json writes a float64 as ES6 does, which is what String() gives; an int64 as digits.
  return Object.is(n, -0) ? '-0' : String(n);
}

/** encoding/json: Marshal (indent '') or MarshalIndent(v, '', indent). Map keys sorted by bytes. */
export function goJson(v: Value, indent = '', depth = 0): string {
  if (v === null || v === INVALID) return 'null';
  if (typeof v === 'string') return goJsonString(v);
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return goJsonNumber(v);
  if (v instanceof GoFloat || v instanceof GoByte) return goJsonNumber(v.value);
  const nl = indent === '' ? '' : `\n${indent.repeat(depth + 1)}`;
  const close = indent === '' ? '' : `\n${indent.repeat(depth)}`;
  const colon = indent === '' ? ':' : ': ';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[${v.map((item) => nl + goJson(item, indent, depth + 1)).join(',')}${close}]`;
  }
  const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => compareStrings(a, b));
  if (entries.length === 0) return '{}';
  return `{${entries.map(([k, item]) => `${nl}${goJsonString(k)}${colon}${goJson(item, indent, depth + 1)}`).join(',')}${close}}`;
}

// ---------------------------------------------------------------------------------------------
// Evaluation (jsonpath.go)

interface JsonPathOptions {
  /** kubectl's --allow-missing-template-keys (default true): a missing field prints nothing instead of failing */
  allowMissingKeys: boolean;
  /** -o jsonpath-as-json: the results as an indented JSON array per action */
  outputJson: boolean;
}

export interface JsonPathTemplate {
  /**
   * The template's output for one document; throws JsonPathError when kubectl's would fail.
   * `terminal`: the text goes to a terminal, so every value taken from the document is escaped
   * (escapeTerminal; JSON text with escapeJsonUnsafe) while the template's own text (`{"\n"}`, a
   * tab) is printed as written. Otherwise the output is exactly client-go's, byte for byte.
   */
  execute(data: unknown, terminal?: boolean): string;
}

/** One action's results, and whether they come from the template's text alone rather than the document. */
interface ActionResults {
  values: Value[];
  literal: boolean;
}

/**
 * Whether a node's results come from the template alone: a quoted string or plain text (which
 * ignore their input, so whatever follows in the same action walks template text only), a number
 * or bool. Anything else (a field, a filter, a bracket union of paths) is document text: escaped.
 */
function fromTemplate(node: Node): boolean {
  switch (node.kind) {
    case 'text':
    case 'int':
    case 'bool':
    case 'float':
      return true;
    case 'list':
      return node.nodes.some(fromTemplate);
    default:
      return false;
  }
}

/** Parses a template; throws JsonPathError on a syntax error, as kubectl's Parse does. */
export function parseJsonPath(template: string, opts: JsonPathOptions): JsonPathTemplate {
  const parser = new Parser();
  parser.parse(template);
  return { execute: (data, terminal = false) => new Executor(parser.root.nodes, opts).execute(data, terminal) };
}

class Executor {
  private beginRange = 0;
  private inRange = 0;
  private endRange = 0;
  /** index (into `nodes`) of the last {end} met; Go keeps a pointer into the same array */
  private lastEndNode = -1;

  constructor(
    private readonly nodes: Node[],
    private readonly opts: JsonPathOptions,
  ) {}

  execute(data: unknown, terminal: boolean): string {
    return this.findResults(data, 0)
      .map(({ values, literal }) => {
        const text = this.printResults(values);
        if (!terminal || literal) return text;
        return this.opts.outputJson ? escapeJsonUnsafe(text) : escapeTerminal(text);
      })
      .join('');
  }

  private findResults(data: Value, start: number): ActionResults[] {
    const full: ActionResults[] = [];
    for (let i = start; i < this.nodes.length; i++) {
      const results = this.walk([data], this.nodes[i] as Node);
      if (this.endRange > 0 && this.endRange <= this.inRange) {
        this.endRange -= 1;
        this.lastEndNode = i;
        break;
      }
      if (this.beginRange > 0) {
        this.beginRange -= 1;
        this.inRange += 1;
        if (results.length > 0) {
          // value.Interface() then reflect.ValueOf: a null item becomes the invalid value
          for (const value of results) full.push(...this.findResults(value === null ? INVALID : value, i + 1));
        } else {
          this.findResults(INVALID, i + 1);
        }
        this.inRange -= 1;
        for (let k = i + 1; k < this.nodes.length; k++) {
          if (k === this.lastEndNode) {
            i = k;
            break;
          }
        }
        continue;
      }
      full.push({ values: results, literal: fromTemplate(this.nodes[i] as Node) });
    }
    return full;
  }

  private printResults(results: Value[]): string {
    if (this.opts.outputJson) return `${goJson(results, '    ')}\n`;
    return results
      .map((r) => (Array.isArray(r) || isMap(r) ? goJson(r) : goText(r)))
      .join(' ');
  }

  private walk(input: Value[], node: Node): Value[] {
    switch (node.kind) {
      case 'list':
        return this.evalList(input, node);
      case 'text':
        return [node.text];
      case 'field':
        return this.evalField(input, node.name);
      case 'array':
        return this.evalArray(input, node.params);
      case 'filter':
        return this.evalFilter(input, node);
      case 'int':
      case 'bool':
        return input.map(() => node.value);
      case 'float':
        return input.map(() => new GoFloat(node.value));
      case 'wildcard':
        return input.flatMap((v) => (isNil(v) ? [] : children(v)));
      case 'recursive':
        return this.evalRecursive(input);
      case 'union':
        return node.nodes.flatMap((n) => this.evalList(input, n));
      case 'identifier':
        return this.evalIdentifier(input, node.name);
    }
  }

  private evalList(input: Value[], node: ListNode): Value[] {
    let cur = input;
    for (const n of node.nodes) cur = this.walk(cur, n);
    return cur;
  }

  private evalIdentifier(input: Value[], name: string): Value[] {
    if (name === 'range') {
      this.beginRange += 1;
      return input;
    }
    if (name === 'end') {
      if (this.inRange > 0) {
        this.endRange += 1;
        return [];
      }
      throw new JsonPathError('not in range, nothing to end'); // kubectl's wording (client-go util/jsonpath/jsonpath.go:281)
    }
    throw new JsonPathError(`unrecognized identifier ${name}`);
  }

  private evalArray(input: Value[], template: [Param, Param, Param]): Value[] {
    const result: Value[] = [];
    for (const value of input) {
      if (isNil(value)) continue;
      if (!Array.isArray(value)) throw new JsonPathError(`${goType(value)} is not array or slice`); // kubectl's wording (client-go util/jsonpath/jsonpath.go:299)
      // Go copies the params per value (an array is a value type)
      const [p0, p1, p2] = template.map((p) => ({ ...p })) as [Param, Param, Param];
      const length = value.length;
      if (!p0.known) p0.value = 0;
      if (p0.value < 0) p0.value += length;
      if (!p1.known) p1.value = length;
      if (p1.value < 0 || (p1.value === 0 && p1.derived)) p1.value += length;
      if (p1.value === p0.value) return result;
      if (p0.value >= length || p0.value < 0) throw new JsonPathError(`array index out of bounds: index ${p0.value}, length ${length}`); // kubectl's wording (client-go util/jsonpath/jsonpath.go:318)
      if (p1.value > length || p1.value < 0) throw new JsonPathError(`array index out of bounds: index ${p1.value - 1}, length ${length}`); // kubectl's wording (client-go util/jsonpath/jsonpath.go:321)
      if (p0.value > p1.value) throw new JsonPathError(`starting index ${p0.value} is greater than ending index ${p1.value}`); // kubectl's wording (client-go util/jsonpath/jsonpath.go:324)
      const slice = value.slice(p0.value, p1.value);
      let step = 1;
      if (p2.known) {
        if (p2.value <= 0) throw new JsonPathError('step must be > 0'); // kubectl's wording (client-go util/jsonpath/jsonpath.go:335)
        step = p2.value;
      }
      for (let i = 0; i < slice.length; i += step) result.push(slice[i]);
    }
    return result;
  }

  private evalField(input: Value[], name: string): Value[] {
    const results: Value[] = [];
    if (input.length === 0) return results;
    for (const value of input) {
      if (isNil(value)) continue;
      if (isMap(value) && Object.prototype.hasOwnProperty.call(value, name)) results.push(value[name]);
    }
    if (results.length === 0 && !this.opts.allowMissingKeys) throw new JsonPathError(`${name} is not found`); // kubectl's wording (client-go util/jsonpath/jsonpath.go:428)
    return results;
  }

  private evalRecursive(input: Value[]): Value[] {
    const result: Value[] = [];
    for (const value of input) {
      if (isNil(value)) continue;
      const inner = children(value);
      if (inner.length !== 0) {
        result.push(value);
        result.push(...this.evalRecursive(inner));
      }
    }
    return result;
  }

  private evalFilter(input: Value[], node: Node & { kind: 'filter' }): Value[] {
    const results: Value[] = [];
    for (const value of input) {
      if (!Array.isArray(value)) throw new JsonPathError(`${goType(value)} is not array or slice and cannot be filtered`); // kubectl's wording (client-go util/jsonpath/jsonpath.go:503)
      for (const item of value) {
        let lefts: Value[];
        try {
          lefts = this.evalList([item], node.left);
        } catch (error) {
          if (node.operator === 'exists') continue;
          throw error;
        }
        if (node.operator === 'exists') {
          if (lefts.length > 0) results.push(item);
          continue;
        }
        if (lefts.length === 0) continue;
        if (lefts.length > 1) throw new JsonPathError('can only compare one element at a time'); // kubectl's wording (client-go util/jsonpath/jsonpath.go:526,538)
        const rights = this.evalList([item], node.right);
        if (rights.length === 0) continue;
        if (rights.length > 1) throw new JsonPathError('can only compare one element at a time'); // kubectl's wording (client-go util/jsonpath/jsonpath.go:526,538)
        if (compare(node.operator, lefts[0], rights[0])) results.push(item);
      }
    }
    return results;
  }
}

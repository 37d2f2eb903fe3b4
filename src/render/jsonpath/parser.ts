// kubectl's jsonpath templates parsed into nodes: a port of k8s.io/client-go/util/jsonpath v0.36.3
// parser.go (src/render/jsonpath/jsonpath.ts has the dialect and its evaluation).
import { JsonPathError, list } from './node.ts';
import type { ListNode, Param } from './node.ts';

// Positions are in UTF-16 code units; every character the grammar looks at is
// ASCII, so that changes nothing but the error texts' rune descriptions.

const EOF = '';
const DICT_KEY = /^'([^']*)'$/;
const SLICE_OPERATOR = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/;
const FILTER = /^([^!<>=]+)([!<>=]+)(.+?)$/;

function isSpace(r: string): boolean {
  return r === ' ' || r === '\t';
}
function isEndOfLine(r: string): boolean {
  return r === '\r' || r === '\n';
}
function isTerminator(r: string): boolean {
  return isSpace(r) || isEndOfLine(r) || r === EOF || '.,[]$@{}'.includes(r);
}
function isAlphaNumeric(r: string): boolean {
  return r === '_' || /^[\p{L}\p{Nd}]$/u.test(r);
}
function isDigit(r: string): boolean {
  return /^\p{Nd}$/u.test(r);
}

export class Parser {
  root: ListNode = list();
  private input = '';
  private pos = 0;
  private start = 0;
  private width = 0;

  parse(text: string): void {
    this.input = text;
    this.root = list();
    this.pos = 0;
    // Go recurses text -> action -> text; a loop here, so a long template cannot exhaust the stack.
    while (this.parseText(this.root)) this.parseLeftDelim(this.root);
  }

  private consumeText(): string {
    const value = this.input.slice(this.start, this.pos);
    this.start = this.pos;
    return value;
  }

  private next(): string {
    if (this.pos >= this.input.length) {
      this.width = 0;
      return EOF;
    }
    const r = String.fromCodePoint(this.input.codePointAt(this.pos) ?? 0);
    this.width = r.length;
    this.pos += this.width;
    return r;
  }

  private peek(): string {
    const r = this.next();
    this.backup();
    return r;
  }

  private backup(): void {
    this.pos -= this.width;
  }

  private rest(): string {
    return this.input.slice(this.pos);
  }

  /** Plain text up to the next `{` (true) or the end (false). */
  private parseText(cur: ListNode): boolean {
    for (;;) {
      if (this.rest().startsWith('{')) {
        if (this.pos > this.start) cur.nodes.push({ kind: 'text', text: this.consumeText() });
        return true;
      }
      if (this.next() === EOF) break;
    }
    if (this.pos > this.start) cur.nodes.push({ kind: 'text', text: this.consumeText() });
    return false;
  }

  private parseLeftDelim(cur: ListNode): void {
    this.pos += 1;
    this.consumeText();
    const node = list();
    cur.nodes.push(node);
    this.parseInsideAction(node);
  }

  // Written as a loop where Go recurses once per token: a long template must not exhaust the stack.
  private parseInsideAction(cur: ListNode): void {
    for (;;) {
      const rest = this.rest();
      if (rest.startsWith('}')) return this.parseRightDelim();
      if (rest.startsWith('[?(')) {
        this.parseFilter(cur);
        continue;
      }
      if (rest.startsWith('..')) {
        this.parseRecursive(cur);
        continue;
      }
      const r = this.next();
      if (r === EOF || isEndOfLine(r)) throw new JsonPathError('unclosed action');
      if (r === ' ' || r === '@' || r === '$') {
        this.consumeText();
      } else if (r === '[') {
        this.parseArray(cur);
      } else if (r === '"' || r === "'") {
        this.parseQuote(cur, r);
      } else if (r === '.') {
        this.parseField(cur);
      } else if (r === '+' || r === '-' || isDigit(r)) {
        this.backup();
        this.parseNumber(cur);
      } else if (isAlphaNumeric(r)) {
        this.backup();
        this.parseIdentifier(cur);
      } else {
        throw new JsonPathError(`unrecognized character in action: ${describeRune(r)}`); // kubectl's wording (client-go util/jsonpath/parser.go:179)
      }
    }
  }

  private parseRightDelim(): void {
    this.pos += 1;
    this.consumeText();
  }

  private parseIdentifier(cur: ListNode): void {
    for (;;) {
      if (isTerminator(this.next())) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (value === 'true' || value === 'false') cur.nodes.push({ kind: 'bool', value: value === 'true' });
    else cur.nodes.push({ kind: 'identifier', name: value });
  }

  private parseRecursive(cur: ListNode): void {
    if (cur.nodes.at(-1)?.kind === 'recursive') throw new JsonPathError('invalid multiple recursive descent'); // kubectl's wording (client-go util/jsonpath/parser.go:220)
    this.pos += 2;
    this.consumeText();
    cur.nodes.push({ kind: 'recursive' });
    if (isAlphaNumeric(this.peek())) this.parseField(cur);
  }

  private parseNumber(cur: ListNode): void {
    const sign = this.peek();
    if (sign === '+' || sign === '-') this.next();
    for (;;) {
      const r = this.next();
      if (r !== '.' && !isDigit(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    // strconv.Atoi, then strconv.ParseFloat
    if (/^[+-]?\d+$/.test(value) && Math.abs(Number(value)) < 2 ** 63) cur.nodes.push({ kind: 'int', value: Number(value) });
    else if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(value)) cur.nodes.push({ kind: 'float', value: Number(value) });
    else throw new JsonPathError(`cannot parse number ${value}`); // kubectl's wording (client-go util/jsonpath/parser.go:255)
  }

  private parseArray(cur: ListNode): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === '\n') throw new JsonPathError('unterminated array');
      if (r === ']') break;
    }
    let text = this.consumeText();
    text = text.slice(1, -1);
    if (text === '*') text = ':';

    const parts = text.split(',');
    if (parts.length > 1) {
      const union = parts.map((part) => parseAction(`[${part.replace(/^ +| +$/g, '')}]`));
      cur.nodes.push({ kind: 'union', nodes: union });
      return;
    }

    const key = DICT_KEY.exec(text);
    if (key) {
      cur.nodes.push(...parseAction(`.${key[1]}`).nodes);
      return;
    }

    const slice = SLICE_OPERATOR.exec(text);
    if (!slice) throw new JsonPathError(`invalid array index ${text}`); // kubectl's wording (client-go util/jsonpath/parser.go:306)
    const params: [Param, Param, Param] = [
      { value: 0, known: false, derived: false },
      { value: 0, known: false, derived: false },
      { value: 0, known: false, derived: false },
    ];
    for (let i = 0; i < 3; i++) {
      let value = slice[i + 1] ?? '';
      const param = params[i] as Param;
      if (value !== '') {
        if (i > 0) value = value.slice(1);
        if (i > 0 && value === '') {
          param.known = false;
        } else {
          if (!/^[+-]?\d+$/.test(value)) throw new JsonPathError(`array index ${value} is not a number`); // kubectl's wording (client-go util/jsonpath/parser.go:322)
          param.known = true;
          param.value = Number(value);
        }
      } else if (i === 1) {
        param.known = true;
        param.value = params[0].value + 1;
        param.derived = true;
      }
    }
    cur.nodes.push({ kind: 'array', params });
  }

  private parseFilter(cur: ListNode): void {
    this.pos += 3;
    this.consumeText();
    let begin = false;
    let end = false;
    let pair = '';
    for (;;) {
      const r = this.next();
      if (r === EOF || r === '\n') throw new JsonPathError('unterminated filter');
      if (r === '"' || r === "'") {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (this.input[this.pos - 2] !== '\\' && r === pair) end = true;
      } else if (r === ')') {
        if (begin === end) break;
      }
    }
    if (this.next() !== ']') throw new JsonPathError('unclosed array expect ]'); // kubectl's wording (client-go util/jsonpath/parser.go:374)
    const text = this.consumeText().slice(0, -2);
    const match = FILTER.exec(text);
    if (!match) {
      cur.nodes.push({ kind: 'filter', left: parseAction(text), right: list(), operator: 'exists' });
    } else {
      cur.nodes.push({ kind: 'filter', left: parseAction(match[1] ?? ''), right: parseAction(match[3] ?? ''), operator: match[2] ?? '' });
    }
  }

  private parseQuote(cur: ListNode, end: string): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === '\n') throw new JsonPathError('unterminated quoted string'); // kubectl's wording (client-go util/jsonpath/parser.go:406)
      if (r === end && this.input[this.pos - 2] !== '\\') break;
    }
    const value = this.consumeText();
    cur.nodes.push({ kind: 'text', text: unquoteExtend(value) });
  }

  private parseField(cur: ListNode): void {
    this.consumeText();
    while (this.advance()) {
      // scan to the next unescaped terminator
    }
    const value = this.consumeText();
    if (value === '*') cur.nodes.push({ kind: 'wildcard' });
    else cur.nodes.push({ kind: 'field', name: value.replaceAll('\\', '') });
  }

  private advance(): boolean {
    const r = this.next();
    if (r === '\\') {
      this.next();
    } else if (isTerminator(r)) {
      this.backup();
      return false;
    }
    return true;
  }
}

/** Go's %#U: U+0023 '#'. */
function describeRune(r: string): string {
  const code = r.codePointAt(0) ?? 0;
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')} '${r}'`;
}

/** parseAction: the text as the inside of one {...} action. */
function parseAction(text: string): ListNode {
  const parser = new Parser();
  parser.parse(`{${text}}`);
  return parser.root.nodes[0] as ListNode;
}

/** strconv.Unquote, extended to single quotes (UnquoteExtend). */
function unquoteExtend(s: string): string {
  const fail = (): never => {
    throw new JsonPathError(`unquote string ${s} error invalid syntax`); // kubectl's wording (client-go util/jsonpath/parser.go:417, 46)
  };
  if (s.length < 2) fail();
  const quote = s[0];
  if (quote !== s.at(-1) || (quote !== '"' && quote !== "'")) fail();
  const body = s.slice(1, -1);
  if (!body.includes('\\') && !body.includes(quote as string)) return body;
  let out = '';
  const simple: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };
  for (let i = 0; i < body.length; ) {
    const c = body[i] as string;
    if (c === quote) fail();
    if (c !== '\\') {
      out += c;
      i += 1;
      continue;
    }
    const e = body[i + 1];
    if (e === undefined) fail();
    const mapped = simple[e as string];
    if (mapped !== undefined) {
      out += mapped;
      i += 2;
    } else if (e === quote) {
      out += e;
      i += 2;
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = body.slice(i + 2, i + 2 + n);
      if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(hex)) fail();
      const code = parseInt(hex, 16);
      if (e !== 'x' && (code > 0x10ffff || (code >= 0xd800 && code < 0xe000))) fail();
      // \xNN is one byte in Go; above 0x7f it would not be valid UTF-8 on its own.
      out += e === 'x' && code > 0x7f ? '\ufffd' : String.fromCodePoint(code);
      i += 2 + n;
    } else if (e !== undefined && /[0-7]/.test(e)) {
      const oct = body.slice(i + 1, i + 4);
      if (!/^[0-7]{3}$/.test(oct) || parseInt(oct, 8) > 255) fail();
      const code = parseInt(oct, 8);
      out += code > 0x7f ? '\ufffd' : String.fromCharCode(code);
      i += 4;
    } else {
      fail();
    }
  }
  return out;
}

// Label and field selectors in apimachinery's grammar, for the inputs the API server cannot filter:
// saved files, and the labels of the objects events are about. Live, a field selector goes to the
// server as `kubectl get events --field-selector` sends it; these parsers also say early and in the
// server's words what it would refuse.

/** One requirement of a label selector (k8s.io/apimachinery pkg/labels/selector.go Requirement). */
export interface LabelRequirement {
  key: string;
  op: 'exists' | '!' | '=' | '!=' | 'in' | 'notin';
  values: string[];
}

/** One term of a field selector (pkg/fields/selector.go): `key=value`, `key==value`, `key!=value`. */
export interface FieldTerm {
  field: string;
  op: '=' | '!=';
  value: string;
}

type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** Splits at commas outside parentheses (`a in (x,y),b` is two requirements). */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth += 1;
    if (ch === ')') depth -= 1;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts;
}

// A label key: an optional DNS subdomain prefix and a name of up to 63 characters
// (apimachinery pkg/util/validation IsQualifiedName); a value: up to 63 of the same characters, or empty.
const NAME = '[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?';
const KEY = new RegExp(`^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?${NAME}$`);
const VALUE = new RegExp(`^(${NAME})?$`);

function requirement(raw: string): ParseResult<LabelRequirement> {
  const text = raw.trim();
  const bad = (why: string): ParseResult<LabelRequirement> => ({ ok: false, error: `${JSON.stringify(text)}: ${why}` });
  const set = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(text);
  const op = /^([^!=\s]+)\s*(==|=|!=)\s*(.*)$/.exec(text);
  let req: LabelRequirement;
  if (set) {
    const values = (set[3] ?? '').split(',').map((v) => v.trim());
    req = { key: set[1] ?? '', op: set[2] === 'in' ? 'in' : 'notin', values };
  } else if (op) {
    req = { key: op[1] ?? '', op: op[2] === '!=' ? '!=' : '=', values: [(op[3] ?? '').trim()] };
  } else if (text.startsWith('!')) {
    req = { key: text.slice(1).trim(), op: '!', values: [] };
  } else {
    req = { key: text, op: 'exists', values: [] };
  }
  if (!KEY.test(req.key)) return bad(`invalid label key ${JSON.stringify(req.key)}`);
  const wrong = req.values.find((v) => !VALUE.test(v));
  if (wrong !== undefined) return bad(`invalid label value ${JSON.stringify(wrong)}`);
  return { ok: true, value: req };
}

/** `-l app=web,tier in (a,b),!canary` as labels.Parse reads it. */
export function parseLabelSelector(text: string): ParseResult<LabelRequirement[]> {
  if (text.trim() === '') return { ok: false, error: 'an empty selector' };
  const reqs: LabelRequirement[] = [];
  for (const part of splitTopLevel(text)) {
    const r = requirement(part);
    if (!r.ok) return r;
    reqs.push(r.value);
  }
  return { ok: true, value: reqs };
}

/** Whether labels satisfy every requirement (an absent key fails `=` and `in`, passes `!=` and `notin`, as in Kubernetes). */
export function matchesLabels(reqs: readonly LabelRequirement[], labels: Readonly<Record<string, string>>): boolean {
  return reqs.every(({ key, op, values }) => {
    const has = Object.hasOwn(labels, key);
    const value = has ? labels[key] : undefined;
    switch (op) {
      case 'exists':
        return has;
      case '!':
        return !has;
      case '=':
      case 'in':
        return has && values.includes(value ?? '');
      case '!=':
      case 'notin':
        return !has || !values.includes(value ?? '');
    }
  });
}

// The fields an Event can be selected by: the API server's field label conversion for core/v1 Events
// (kubernetes pkg/apis/core/v1/conversion.go AddFieldLabelConversionsForEvent, v1.36.3).
export const EVENT_FIELDS = [
  'involvedObject.kind',
  'involvedObject.namespace',
  'involvedObject.name',
  'involvedObject.uid',
  'involvedObject.apiVersion',
  'involvedObject.resourceVersion',
  'involvedObject.fieldPath',
  'reason',
  'reportingComponent',
  'source',
  'type',
  'metadata.namespace',
  'metadata.name',
] as const;

/** Splits at commas not escaped with a backslash, and unescapes (fields.ParseSelector, UnescapeValue). */
function splitFieldTerms(text: string): string[] {
  const terms: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === '\\' && i + 1 < text.length) {
      current += ch + text[i + 1];
      i += 1;
    } else if (ch === ',') {
      terms.push(current);
      current = '';
    } else current += ch;
  }
  terms.push(current);
  return terms;
}

function unescape(value: string): string {
  return value.replace(/\\(.)/g, '$1');
}

/**
 * `--field-selector reason=Unhealthy,type!=Normal` as fields.ParseSelector reads it; a field the API
 * server cannot select Events by is refused in its words (`field label not supported: X`).
 */
export function parseFieldSelector(text: string): ParseResult<FieldTerm[]> {
  const terms: FieldTerm[] = [];
  for (const raw of splitFieldTerms(text)) {
    if (raw === '') continue;
    const m = /^([^=!]*?)(!=|==|=)(.*)$/s.exec(raw);
    if (!m) return { ok: false, error: `invalid selector: '${text}'; can't understand '${raw}'` };
    const field = (m[1] ?? '').trim();
    if (!(EVENT_FIELDS as readonly string[]).includes(field)) return { ok: false, error: `field label not supported: ${field}` };
    terms.push({ field, op: m[2] === '!=' ? '!=' : '=', value: unescape(m[3] ?? '') });
  }
  return { ok: true, value: terms };
}

/** Whether an event's selectable fields (as the API server sets them) satisfy every term. */
export function matchesFields(terms: readonly FieldTerm[], fields: Readonly<Record<string, string>>): boolean {
  return terms.every(({ field, op, value }) => ((fields[field] ?? '') === value) === (op === '='));
}

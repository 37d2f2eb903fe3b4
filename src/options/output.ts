// -o/--output as kubectl reads it: a verb's own formats (table, wide, stable, text) beside the
// document printers every read verb shares (json, yaml, name, jsonpath=..., jsonpath-file=...,
// jsonpath-as-json=...), and kubectl's --template and --allow-missing-template-keys.
// Go templates (go-template=, go-template-file=, template=, templatefile=) are refused: a faithful
// port means Go's text/template (pipelines, variables, printf's verbs, Go's comparison rules) plus
// kubectl's functions, and a template that half works is worse than a clear no.
import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.ts';
import { JsonPathError } from '../render/jsonpath/node.ts';
import { parseJsonPath } from '../render/jsonpath/jsonpath.ts';
import type { DocumentPrinter } from '../render/document.ts';
import type { RawOptions } from './raw.ts';
import { errnoText } from '../io/errno.ts';
import { outputValues } from './output-values.ts';

export type OutputChoice<T extends string> = { kind: 'verb'; format: T } | { kind: 'document'; printer: DocumentPrinter };

const JSONPATH_FORMATS = ['jsonpath', 'jsonpath-file', 'jsonpath-as-json'] as const;
const GO_TEMPLATE_FORMATS = ['go-template', 'go-template-file', 'template', 'templatefile'];

function splitFormat(text: string): { format: string; argument: string | undefined } {
  const eq = text.indexOf('=');
  return eq < 0 ? { format: text, argument: undefined } : { format: text.slice(0, eq), argument: text.slice(eq + 1) };
}

function readTemplateFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`error reading --template ${path}: ${errnoText(error)}`);
  }
}

function jsonPathPrinter(format: (typeof JSONPATH_FORMATS)[number], argument: string, raw: RawOptions): DocumentPrinter {
  const template = format === 'jsonpath-file' ? readTemplateFile(argument) : argument;
  const allowMissingKeys = raw.allowMissingTemplateKeys !== false && raw.allowMissingTemplateKeys !== 'false';
  const options = { allowMissingKeys, outputJson: format === 'jsonpath-as-json' };
  try {
    // Parsed now, as kubectl does, so a bad template fails before the cluster is read.
    return { kind: 'jsonpath', template, compiled: parseJsonPath(template, options) };
  } catch (error) {
    if (error instanceof JsonPathError) throw new UsageError(`error parsing jsonpath ${template}, ${error.message}`);
    throw error;
  }
}

/**
 * Reads -o (with --template). `verbFormats[0]` is the default. `withName`: whether -o name makes
 * sense for the verb (its results are events).
 */
export function parseOutputChoice<T extends string>(raw: RawOptions, verbFormats: readonly T[], withName: boolean): OutputChoice<T> {
  const text = typeof raw.output === 'string' ? raw.output : (verbFormats[0] as T);
  const { format, argument } = splitFormat(text);
  if (verbFormats.includes(text as T)) return { kind: 'verb', format: text as T };
  if (text === 'json' || text === 'yaml') return { kind: 'document', printer: { kind: text } };
  if (text === 'name' && withName) return { kind: 'document', printer: { kind: 'name' } };
  if (GO_TEMPLATE_FORMATS.includes(format)) {
    throw new UsageError(`-o ${format} is not supported: Go templates are not implemented (a partial port would print wrong output); use -o jsonpath=... (kubectl's jsonpath), -o json or -o yaml`);
  }
  if ((JSONPATH_FORMATS as readonly string[]).includes(format)) {
    const template = argument ?? (typeof raw.template === 'string' ? raw.template : '');
    if (template === '') throw new UsageError('template format specified but no template given');
    return { kind: 'document', printer: jsonPathPrinter(format as (typeof JSONPATH_FORMATS)[number], template, raw) };
  }
  throw new UsageError(`-o ${JSON.stringify(text)}: want one of ${outputValues(verbFormats, withName).join(', ')}`);
}

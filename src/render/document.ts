// Printers that apply to a verb's -o json document: json, yaml, kubectl's jsonpath, and -o name.
import { RuntimeError } from '../errors.ts';
import { escapeTerminal } from './escape.ts';
import { toJsonText } from './json.ts';
import { JsonPathError } from './jsonpath.ts';
import type { JsonPathTemplate } from './jsonpath.ts';
import { toYamlText } from './yaml.ts';

export type DocumentPrinter =
  | { kind: 'json' }
  | { kind: 'yaml' }
  /** kubectl's `-o name`: `event/NAME`, one a line */
  | { kind: 'name' }
  | { kind: 'jsonpath'; template: string; compiled: JsonPathTemplate };

/** Keeps line breaks and tabs a template asked for; makes every other control character visible. */
function escapeKeepingLayout(text: string): string {
  return text
    .split(/(\n|\t)/)
    .map((part) => (part === '\n' || part === '\t' ? part : escapeTerminal(part)))
    .join('');
}

/**
 * The document as the printer writes it. `names` are the event names for -o name. `terminal`: the
 * text goes to a terminal, where the raw text a template picks out of events is escaped (kubectl
 * prints it raw; in a pipe, so do we, so scripts get exact values).
 */
export function renderDocument(doc: unknown, names: string[], printer: DocumentPrinter, terminal: boolean): string {
  switch (printer.kind) {
    case 'json':
      return toJsonText(doc);
    case 'yaml':
      return toYamlText(doc);
    case 'name': {
      const text = names.map((name) => `event/${name}\n`).join('');
      return terminal ? escapeKeepingLayout(text) : text;
    }
    case 'jsonpath': {
      let text: string;
      try {
        text = printer.compiled.execute(doc);
      } catch (error) {
        if (error instanceof JsonPathError) throw new RuntimeError(`error executing jsonpath ${JSON.stringify(printer.template)}: ${error.message}`);
        throw error;
      }
      return terminal ? escapeKeepingLayout(text) : text;
    }
  }
}

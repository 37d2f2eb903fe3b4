// Printers that apply to a verb's -o json document: json, yaml, kubectl's jsonpath, and -o name.
import { RuntimeError } from '../errors.ts';
import { escapeTerminal } from './escape.ts';
import { toJsonText } from './json.ts';
import { JsonPathError } from './jsonpath/node.ts';
import type { JsonPathTemplate } from './jsonpath/jsonpath.ts';
import { toYamlText } from './yaml.ts';

export type DocumentPrinter =
  | { kind: 'json' }
  | { kind: 'yaml' }
  /** kubectl's `-o name`: `event/NAME`, one a line */
  | { kind: 'name' }
  | { kind: 'jsonpath'; template: string; compiled: JsonPathTemplate };

/**
 * The document as the printer writes it. `names` are the event names for -o name. `terminal`: the
 * text goes to a terminal (Deps.stdout.isTTY), where each name and each value a template picks out
 * of the document is escaped, but not the template's own text (kubectl prints it all raw; to a pipe
 * or file, so do we, so scripts get exact values).
 */
export function renderDocument(doc: unknown, names: string[], printer: DocumentPrinter, terminal: boolean): string {
  switch (printer.kind) {
    case 'json':
      return toJsonText(doc);
    case 'yaml':
      return toYamlText(doc);
    case 'name': {
      // A name read from a saved file (--from) is whatever the file says: escaped like any event text.
      return names.map((name) => `event/${terminal ? escapeTerminal(name) : name}\n`).join('');
    }
    case 'jsonpath': {
      try {
        return printer.compiled.execute(doc, terminal);
      } catch (error) {
        if (error instanceof JsonPathError) throw new RuntimeError(`error executing jsonpath ${JSON.stringify(printer.template)}: ${error.message}`); // kubectl's wording (cli-runtime pkg/printers/jsonpath.go:145)
        throw error;
      }
    }
  }
}

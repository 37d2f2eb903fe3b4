// Flags anywhere, as kubectl (cobra over pflag) takes them: the verb is found by name wherever it
// stands, a flag's value is never taken for a verb (`--for incident/x`, `-n incident`), and the words
// come out in one order commander reads without surprises: the verb, then every flag in its long
// form with its value attached (`--namespace=ns`), then `--` and the verb's own arguments.
//
// pflag's readings kept here (github.com/spf13/pflag flag.go parseLongArg, parseSingleShortArg):
// `--flag=value` and `--flag value`; `-n=ns`, `-nns` and `-n ns`; `-Aw` (several switches); a boolean
// flag takes a value only as `--flag=false`, never from the next word; `--` ends the flags.
import type { FlagSpec } from './flags.ts';

interface Scanned {
  /** the first word that names a verb; null: none (the default verb) */
  verb: string | null;
  /** `help VERB` */
  helpFor: string | null;
  /** -h or --help given as a flag */
  help: boolean;
  /** each flag in long form, its value attached: `--namespace=ns`, `--watch`; unknown flags as written */
  flags: string[];
  /** the words that are neither flags, nor their values, nor the verb */
  args: string[];
}

/** Which words take a value: every flag of every verb (a name means one thing across verbs). */
interface FlagTable {
  byName: ReadonlyMap<string, FlagSpec>;
}

export function flagTable(flags: readonly FlagSpec[]): FlagTable {
  const byName = new Map<string, FlagSpec>();
  for (const f of flags) {
    byName.set(f.long, f);
    if (f.short) byName.set(f.short, f);
  }
  return { byName };
}

/** A flag that needs a value from somewhere: `--namespace ns`. A `[bool]` flag (kubectl's booleans) does not. */
function needsValue(f: FlagSpec): boolean {
  return f.value !== undefined && f.bool !== true;
}

const HELP = new Set(['-h', '--help']);

/** Reads argv as pflag would, given the verbs' names and every flag. */
export function scanArgv(argv: readonly string[], verbs: readonly string[], table: FlagTable): Scanned {
  const out: Scanned = { verb: null, helpFor: null, help: false, flags: [], args: [] };
  const words: string[] = [];
  let i = 0;
  const next = (): string | undefined => {
    i += 1;
    return argv[i];
  };
  for (; i < argv.length; i += 1) {
    const word = argv[i] ?? '';
    if (word === '--') {
      out.args.push(...argv.slice(i + 1));
      break;
    }
    if (HELP.has(word)) {
      out.help = true;
    } else if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const name = eq < 0 ? word : word.slice(0, eq);
      const f = table.byName.get(name);
      if (f === undefined || eq >= 0 || !needsValue(f)) out.flags.push(f === undefined ? word : `${f.long}${eq < 0 ? '' : word.slice(eq)}`);
      else {
        const value = next();
        out.flags.push(value === undefined ? f.long : `${f.long}=${value}`);
      }
    } else if (word.startsWith('-') && word.length > 1) {
      shortCluster(word, table, next, out);
    } else {
      words.push(word);
    }
  }
  // The verb is found by name among the words that are no flag value; `help VERB` asks for its help.
  const verbAt = words.findIndex((w) => verbs.includes(w) || w === 'help');
  if (verbAt >= 0 && words[verbAt] === 'help') {
    out.help = true;
    const asked = words.slice(verbAt + 1).find((w) => verbs.includes(w));
    out.helpFor = asked ?? null;
    out.verb = asked ?? null;
    out.args.unshift(...words.filter((_, n) => n !== verbAt && words[n] !== asked));
    return out;
  }
  if (verbAt >= 0) out.verb = words[verbAt] ?? null;
  out.args.unshift(...words.filter((_, n) => n !== verbAt));
  return out;
}

/** `-Aw`, `-n=ns`, `-nns`, `-n ns`, `-v=6`: switches, then at most one flag that takes the rest or the next word. */
function shortCluster(word: string, table: FlagTable, next: () => string | undefined, out: Scanned): void {
  for (let k = 1; k < word.length; k += 1) {
    const f = table.byName.get(`-${word[k]}`);
    if (f === undefined) {
      out.flags.push(k === 1 ? word : `-${word.slice(k)}`); // commander names the unknown flag
      return;
    }
    if (!needsValue(f)) {
      out.flags.push(f.long);
      continue;
    }
    const rest = word.slice(k + 1);
    const value = rest === '' ? next() : rest.startsWith('=') ? rest.slice(1) : rest;
    out.flags.push(value === undefined ? f.long : `${f.long}=${value}`);
    return;
  }
}

/** The words for commander: the verb (the default when none was named), the flags, then `--` and the arguments. */
export function commanderArgv(scanned: Scanned, defaultVerb: string): string[] {
  return [scanned.verb ?? defaultVerb, ...scanned.flags, ...(scanned.args.length > 0 ? ['--', ...scanned.args] : [])];
}

// The type audit for people: findings grouped by kind, then what kubectl does with each offending type.
// Every string that came from an event goes through escapeTerminal before any colour is added.

import type { AuditFinding, AuditReport, FindingGroup, FindingKind, KubectlTypeBehaviour } from '../core/audit.ts';
import { NONE } from '../core/timeline.ts';
import type { Palette } from './color.ts';
import { escapeTerminal } from './escape.ts';
import { explainFinding, summariseKubectlTypes } from './audit-words.ts';
import { escapeOrNone, plural } from './words.ts';

const HEADINGS: Record<FindingKind, string> = {
  'unconventional-type': 'Unconventional types (not exactly Normal or Warning)',
  'unaggregatable-reason': 'Reasons that cannot be aggregated (not a short CamelCase word)',
  'no-object-uid': 'Events not tied to one object (no object uid)',
};

const KINDS = Object.keys(HEADINGS) as FindingKind[];

export function renderAuditText(report: AuditReport, palette: Palette): string {
  const sections = [renderFindings(report, palette)];
  if (report.types.length > 0) {
    const blocks = report.types.map((b) => renderTypeBehaviour(b, palette));
    sections.push([palette.bold('What kubectl does with these types'), ...blocks].join('\n'));
  }
  return `${sections.join('\n\n')}\n`;
}

/** The summary line and one section per kind of finding (no trailing newline). */
export function renderFindings(report: AuditReport, palette: Palette): string {
  const checked = `${plural(report.checked, 'event')} checked`;
  if (!report.hasFindings) {
    return `Type audit: ${checked}. No unconventional types, unaggregatable reasons or missing object uids found.`;
  }
  // Findings with the same rule, cause, reporter, reason and type are told once, with counts and an example.
  const grouped = report.groups.length < report.findings.length ? ` in ${plural(report.groups.length, 'group')}` : '';
  const sections = [`Type audit: ${checked}, ${plural(report.findings.length, 'finding')}${grouped}.`];
  for (const kind of KINDS) {
    const found = report.groups.filter((g) => g.kind === kind);
    if (found.length > 0) sections.push([palette.bold(HEADINGS[kind]), ...found.map((g) => groupLines(g, palette))].join('\n'));
  }
  return sections.join('\n\n');
}

function groupLines(g: FindingGroup, palette: Palette): string {
  if (g.events === 1) return findingLines(g.example, palette);
  const f = g.example;
  const type = f.kind === 'unconventional-type' ? palette.unconventional(escapeOrNone(f.type)) : escapeOrNone(f.type);
  const facts = `reason ${escapeOrNone(f.reason)}, type ${type}, reported by ${escapeOrNone(f.reporter)}, ${plural(g.occurrences, 'time')} in all`;
  const example = `for example ${palette.bold(`${inContext(f)}${escapeOrNone(f.event)}`)} about ${escapeOrNone(f.object)} (count ${f.count})`;
  const clusters = g.contexts === undefined ? '' : ` in ${plural(g.contexts.length, 'cluster')} (${g.contexts.map(escapeTerminal).join(', ')})`;
  return `  ${plural(g.events, 'event')} about ${plural(g.objects, 'object')}${clusters}: ${facts}; ${example}\n    ${escapeTerminal(explainFinding(f))}`;
}

function findingLines(f: AuditFinding, palette: Palette): string {
  const type = f.kind === 'unconventional-type' ? palette.unconventional(escapeOrNone(f.type)) : escapeOrNone(f.type);
  const facts = `reason ${escapeOrNone(f.reason)}, type ${type}, reported by ${escapeOrNone(f.reporter)}, count ${f.count}`;
  return `  ${palette.bold(`${inContext(f)}${escapeOrNone(f.event)}`)} about ${escapeOrNone(f.object)}: ${facts}\n    ${escapeTerminal(explainFinding(f))}`;
}

/** Several contexts read together: `context: ` before the event's name. */
function inContext(f: AuditFinding): string {
  return f.context === undefined ? '' : `${escapeTerminal(f.context)}: `;
}

/** One type: the command a user would try and what it does, then what Warning filters do with it. */
export function renderTypeBehaviour(b: KubectlTypeBehaviour, palette: Palette): string {
  const title = b.type === '' ? `${NONE} (empty)` : escapeOrNone(b.type);
  const lines = [`  ${b.type === 'Warning' ? palette.warning(title) : palette.unconventional(title)}`];
  lines.push(`    ${commandOutcome(b)}`);
  if (b.type !== 'Warning') {
    lines.push(`    kubectl events --types=Warning -> ${b.shownByTypesWarning ? 'lists it (kubectl ignores case)' : 'does not list it'}`);
  }
  lines.push(`    kubectl get events --field-selector type=Warning -> ${b.shownByExactWarning ? 'matches it' : 'does not match it (exact match)'}`);
  return lines.join('\n');
}

function commandOutcome(b: KubectlTypeBehaviour): string {
  if (b.command === null) return escapeTerminal(summariseKubectlTypes(b));
  const command = escapeTerminal(b.command);
  if (b.typesFlag === 'refused') return `${command} -> exit ${b.exitCode}, stderr "${b.stderr}"`;
  return `${command} -> exit ${b.exitCode}, lists it`;
}

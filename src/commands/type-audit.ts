// `kubectl evtimeline type-audit`: events that tools silently misread. Exit 3 on findings, for CI.
import { renderHiddenFooter } from '../render/hidden.ts';
import { criterionFlag } from '../options/selection.ts';
import type { Deps } from '../deps.ts';
import { EXIT } from '../errors.ts';
import type { CommandResult } from '../errors.ts';
import { auditEvents } from '../core/audit.ts';
import { choosePalette } from '../render/color.ts';
import { toAuditJson } from '../render/audit-json.ts';
import { renderDocument } from '../render/document.ts';
import { renderAuditText } from '../render/audit-text.ts';
import { parseCommonOptions } from '../options/common.ts';
import { parseOutputChoice } from '../options/output.ts';
import { AUDIT_OUTPUTS } from '../options/output-values.ts';
import type { OutputChoice } from '../options/output.ts';
import type { CommonOptions } from '../options/common.ts';
import type { RawOptions } from '../options/raw.ts';
import { readEvents } from '../app/read-events.ts';

interface TypeAuditOptions {
  common: CommonOptions;
  output: OutputChoice<(typeof AUDIT_OUTPUTS)[number]>;
}

export function parseTypeAuditOptions(raw: RawOptions): TypeAuditOptions {
  return { common: parseCommonOptions(raw), output: parseOutputChoice(raw, AUDIT_OUTPUTS, true) };
}

export async function runTypeAudit(opts: TypeAuditOptions, deps: Deps): Promise<CommandResult> {
  const { source, events, hidden, unanswered } = await readEvents(opts.common, deps, deps.now(), { notes: false });
  const report = auditEvents(events, { uids: source.provenance.tells.uids });
  if (opts.output.kind === 'document') {
    // -o name: each event with a finding, once
    const names = [...new Set(report.findings.map((f) => f.event.slice(f.event.indexOf('/') + 1)))];
    deps.stdout.write(renderDocument(toAuditJson(report), names, opts.output.printer, deps.stdout.isTTY));
  } else {
    deps.stdout.write(renderAuditText(report, choosePalette({ flag: opts.common.color, isTTY: deps.stdout.isTTY, env: deps.env })));
  }
  deps.stderr.write(renderHiddenFooter(hidden, criterionFlag));
  // Some clusters did not answer: the audit is incomplete, whatever it found (4 before 3).
  return { exitCode: unanswered.length > 0 ? EXIT.partial : report.hasFindings ? EXIT.findings : EXIT.ok };
}

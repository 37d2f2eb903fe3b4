// `kubectl evtimeline type-audit`: events that tools silently misread. Exit 3 on findings, for CI.
import type { Deps } from '../deps.ts';
import { EXIT } from '../errors.ts';
import type { CommandResult } from '../errors.ts';
import { auditEvents } from '../core/audit.ts';
import { choosePalette } from '../render/color.ts';
import { toJsonText } from '../render/json.ts';
import { toAuditJson } from '../render/audit-json.ts';
import { renderAuditText } from '../render/audit-text.ts';
import { parseCommonOptions, parseOutput } from './options.ts';
import type { CommonOptions, RawOptions } from './options.ts';
import { readEvents } from './read-events.ts';

export const AUDIT_OUTPUTS = ['text', 'json'] as const;

interface TypeAuditOptions {
  common: CommonOptions;
  output: (typeof AUDIT_OUTPUTS)[number];
}

export function parseTypeAuditOptions(raw: RawOptions): TypeAuditOptions {
  return { common: parseCommonOptions(raw), output: parseOutput(raw.output, AUDIT_OUTPUTS) };
}

export async function runTypeAudit(opts: TypeAuditOptions, deps: Deps): Promise<CommandResult> {
  const { source, events } = await readEvents(opts.common, deps, deps.now());
  const report = auditEvents(events, { uids: source.provenance.tells.uids });
  if (opts.output === 'json') {
    deps.stdout.write(toJsonText(toAuditJson(report)));
  } else {
    deps.stdout.write(renderAuditText(report, choosePalette({ flag: opts.common.color, isTTY: deps.stdout.isTTY, env: deps.env })));
  }
  return { exitCode: report.hasFindings ? EXIT.findings : EXIT.ok };
}

// `type-audit -o json`: the wire shape scripts read. Field names and order are the documented
// output (README); the domain report (src/core/audit.ts) holds causes, this adds their words.
import type { AuditFinding, AuditReport, FindingGroup, KubectlTypeBehaviour } from '../core/audit.ts';
import { explainFinding, summariseKubectlTypes } from './audit-words.ts';

/** A finding as scripts read it: its cause said in words. */
type AuditFindingJson = Omit<AuditFinding, 'cause'> & {
  /** one line saying why this hurts */
  explanation: string;
};

export type KubectlTypesJson = KubectlTypeBehaviour & {
  /** one sentence for people */
  summary: string;
};

/** Findings with the same rule, cause, reporter, reason and type (README: type-audit): the cause said in words. */
type FindingGroupJson = Omit<FindingGroup, 'cause' | 'example'> & {
  explanation: string;
  example: Pick<AuditFinding, 'event' | 'object' | 'count'>;
};

interface AuditJson {
  checked: number;
  findings: AuditFindingJson[];
  groups: FindingGroupJson[];
  types: KubectlTypesJson[];
  hasFindings: boolean;
}

export function toKubectlTypesJson(b: KubectlTypeBehaviour): KubectlTypesJson {
  const { type, command, typesFlag, exitCode, stderr, shownByTypesWarning, shownByExactWarning } = b;
  return { type, command, typesFlag, exitCode, stderr, shownByTypesWarning, shownByExactWarning, summary: summariseKubectlTypes(b) };
}

export function toAuditJson(report: AuditReport): AuditJson {
  return {
    checked: report.checked,
    findings: report.findings.map((f) => {
      const { kind, event, object, reason, type, reporter, count } = f;
      return { kind, event, object, reason, type, reporter, count, explanation: explainFinding(f), ...(f.context === undefined ? {} : { context: f.context }) };
    }),
    groups: report.groups.map((g) => ({
      kind: g.kind,
      reporter: g.reporter,
      reason: g.reason,
      type: g.type,
      events: g.events,
      objects: g.objects,
      occurrences: g.occurrences,
      explanation: explainFinding(g.example),
      example: { event: g.example.event, object: g.example.object, count: g.example.count },
      ...(g.contexts === undefined ? {} : { contexts: g.contexts }),
    })),
    types: report.types.map(toKubectlTypesJson),
    hasFindings: report.hasFindings,
  };
}

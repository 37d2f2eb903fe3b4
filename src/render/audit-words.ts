// Why each audit finding hurts, and what kubectl does with a type, in words: shared by the audit's
// text and JSON, the capture's type report and the incident account.
import { REASON_MAX, TYPES_REFUSED_STDERR } from '../core/audit.ts';
import type { AuditFinding, KubectlTypeBehaviour } from '../core/audit.ts';

/** One line saying why this finding hurts. */
export function explainFinding(f: AuditFinding): string {
  switch (f.cause) {
    case 'empty-type':
      return 'type is empty: no --types value can select it and Warning-only filters skip it.';
    case 'type-case':
      return 'type differs from Normal or Warning only in case: kubectl matches it, but exact filters (field selectors, alert rules) do not.';
    case 'type-unconventional':
      return 'type is neither Normal nor Warning: kubectl events --types refuses it and Warning-only filters and alerts never show it.';
    case 'empty-reason':
      return 'reason is empty: there is nothing to count or aggregate these events by.';
    case 'reason-too-long':
      return `reason is ${f.reason.length} characters (the API server refuses over ${REASON_MAX} on events with eventTime): a reason is a short key machines count; details belong in the message.`;
    case 'reason-sentence':
      return 'reason reads like a sentence: every wording becomes its own reason, which defeats aggregation and counting; put details in the message.';
    case 'reason-not-camel':
      return 'reason is not a CamelCase word (a capital letter, then letters and digits): tools that group and count by reason split it from its peers.';
    case 'no-object':
      return 'the event names no object: its story cannot be tied to anything.';
    case 'no-uid':
      return 'the object reference has no uid: the story cannot be tied to one incarnation of an object that is deleted and re-created under the same name.';
  }
}

/** One sentence for people: what `kubectl events --types=<type>` does. */
export function summariseKubectlTypes(b: KubectlTypeBehaviour): string {
  if (b.typesFlag === 'refused') return `\`${b.command}\` is refused: "${TYPES_REFUSED_STDERR}", exit 1.`;
  if (b.typesFlag === 'not-expressible') {
    return b.type === ''
      ? 'No `kubectl events --types` value selects an empty type: `--types=` is read as no filter at all, and an empty item in a list (`--types=,Normal`) is refused.'
      : 'No `kubectl events --types` value selects it: kubectl splits the value at commas.';
  }
  if (b.type === 'Warning') return `\`${b.command}\` lists it: this is the type every Warning filter looks for.`;
  if (b.type === 'Normal') return `\`${b.command}\` lists it.`;
  const alsoWarning = b.type.toLowerCase() === 'warning' ? '; so does `kubectl events --types=Warning`' : '';
  return `\`${b.command}\` lists it, because kubectl ignores case${alsoWarning}.`;
}

/** Filters that never show events of this type (beyond `kubectl.command` itself). */
export function missedBy(k: KubectlTypeBehaviour): string[] {
  const missed: string[] = [];
  if (!k.shownByTypesWarning) missed.push('kubectl events --types=Warning');
  if (!k.shownByExactWarning) missed.push('kubectl get events --field-selector type=Warning');
  missed.push('alerts and dashboards that match Warning exactly');
  return missed;
}

// client-go's recorders (tools/record and tools/events) check ValidateEventType and drop anything else.
/** Where an event of an unconventional type can have come from. */
export const UNCONVENTIONAL_ORIGIN =
  "It came from a writer that bypassed client-go's event recorders (kubectl apply, a raw API call, another client): those recorders drop every type but Normal and Warning before sending.";

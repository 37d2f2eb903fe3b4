// Causes in sentences: the "Why" section at the top of `incident`, the timeline page's causes and
// -o json's `sentence`. Every value read from a cluster (names, messages, log lines) is escaped here.
import type { Cause, Evidence } from '../core/cause-types.ts';
import type { FactGap } from '../core/facts.ts';
import { signalName } from '../core/causes-pod.ts';
import { formatQuantity } from '../core/quantity.ts';
import { escapeTerminal } from './escape.ts';
import { formatTime } from './time.ts';
import { plural } from './words.ts';
import type { Palette } from './color.ts';

/** The default Why shows this many causes (two lines each: about 10 lines); --detail shows all. */
const WHY_CAUSES = 5;

/** How a value read from a cluster is made safe: escapeTerminal for text, as is for JSON (its encoder escapes). */
type Escape = (text: string) => string;

function quantity(resource: string, value: number | null): string {
  return value === null ? 'unknown' : formatQuantity(resource, value);
}

function restarts(n: number): string {
  return n === 0 ? 'not restarted' : `restarted ${plural(n, 'time')}`;
}

function probeWord(kind: string): string {
  return `${kind} probe`;
}

/** One sentence, without the object (the caller names it). Untrusted parts escaped. */
function causeSentence(cause: Cause, e: Escape = escapeTerminal): string {
  const q = (text: string): string => `"${e(text)}"`;
  const d = cause.detail;
  switch (d.kind) {
    case 'oom-killed':
      return `container ${e(d.container)} was killed for using more memory than its limit (OOMKilled, exit code ${d.exitCode ?? 'unknown'}${d.limit === null ? ', no memory limit in its spec: the node ran out' : `, limits.memory ${e(d.limit)}`}), ${restarts(d.restarts)}`;
    case 'exits': {
      const signal = d.signal !== null ? `, signal ${signalName(d.signal)}` : d.signalFromCode !== null ? `, probably ${signalName(d.signalFromCode)}` : '';
      const parts = [`container ${e(d.container)} ${d.restarts > 0 || d.crashLoop ? 'keeps exiting' : 'exited'} with code ${d.exitCode}${d.reason === '' ? '' : ` (${e(d.reason)}${signal})`}, ${restarts(d.restarts)}${d.crashLoop ? ', now in CrashLoopBackOff' : ''}`];
      if (d.message !== '') parts.push(`its termination message: ${q(d.message.trim())}`);
      if (d.lastWords.length > 0) parts.push(`its last words: ${q(d.lastWords.join('\n'))}`);
      return parts.join('; ');
    }
    case 'image-pull':
      return `container ${e(d.container)} cannot pull image ${q(d.image)} (${e(d.reason)}): ${e(d.message)}`;
    case 'missing-config': {
      const kind = d.missing === 'configmap' ? 'ConfigMap' : 'Secret';
      const what = d.key === null ? `${kind} ${q(d.name)} does not exist` : `key ${q(d.key)} is missing from ${kind} ${q(d.name)}`;
      return `${d.container === '' ? 'it' : `${d.container.startsWith('volume ') ? e(d.container) : `container ${e(d.container)}`}`} cannot start: ${what}`;
    }
    case 'probe': {
      const threshold = d.threshold === null ? '' : `, threshold ${d.threshold}`;
      const counts = `${plural(d.failures, 'failure')}${threshold}`;
      const output = d.output.trim() === '' ? '' : `: ${q(d.output.trim())}`;
      if (d.expected) return `container ${e(d.container)}'s ${probeWord(d.probe)} failed while it started (${counts}): expected, below the threshold`;
      if (d.probe === 'readiness') return `container ${e(d.container)} is not ready: its readiness probe fails (${counts})${output}`;
      return `container ${e(d.container)} is ${d.killed ? '' : 'probably '}restarted because its ${probeWord(d.probe)} fails (${counts}; ${restarts(d.restarts)})${output}`;
    }
    case 'unschedulable': {
      const parts = [`cannot be scheduled: ${d.nodes === null ? '' : `0/${d.nodes} nodes are available: `}${e(d.reasons.map((r) => (r.count === null ? r.text : `${r.count} ${r.text}`)).join(', '))}`];
      for (const s of d.shortfalls) {
        // Without the Pod's spec nor the nodes, the scheduler's words are all there is.
        if (s.requested === null && s.best === undefined) continue;
        const asks = s.resource === 'pods' ? 'needs a Pod slot' : `requests ${e(s.resource)} ${quantity(s.resource, s.requested)}`;
        parts.push(s.best === undefined ? asks : `${asks}; the most any node has free is ${quantity(s.resource, s.best.free)} of ${quantity(s.resource, s.best.allocatable)} (${e(s.best.node)})`);
      }
      if (d.taints.length > 0) parts.push(`untolerated taints: ${d.taints.map((t) => `${t.node === '' ? '' : `${e(t.node)} `}${e(t.key)}${t.value === '' ? '' : `=${e(t.value)}`}${t.effect === '' ? '' : `:${e(t.effect)}`}`).join(', ')}`);
      if (d.unschedulableNodes.length > 0) parts.push(`cordoned: ${d.unschedulableNodes.map(e).join(', ')}`);
      for (const c of d.unboundClaims) parts.push(`PersistentVolumeClaim ${e(c.name)} is ${e(c.phase || 'unbound')}${c.storageClass === '' ? '' : ` (storage class ${e(c.storageClass)})`}`);
      return parts.join('; ');
    }
    case 'node-lost': {
      const when = d.since === null ? '' : ` at ${formatTime(d.since)}`;
      const status = d.ready ? 'it is Ready again' : d.status === '' ? '' : `Ready=${e(d.status)}${d.conditionReason === '' ? '' : ` (${e(d.conditionReason)})`}`;
      const taint = d.taint === null ? '' : `; the taint ${e(d.taint.key)}:${e(d.taint.effect)} evicts its Pods`;
      const pods = d.pods.length === 0 ? '' : `; Pods it lost: ${listed(d.pods.map(e))}`;
      return `stopped reporting${when}${status === '' ? '' : `, ${status}`}${taint}${pods}`;
    }
    case 'create-refused': {
      if (d.quota === null) return `cannot create Pods: ${e(d.message)}`;
      const hard = d.hard === null ? '' : ` (its hard limits: ${Object.entries(d.hard).map(([k, v]) => `${e(k)}=${e(v)}`).join(', ')})`;
      return `cannot create Pods: ResourceQuota ${q(d.quota.name)} refused them (requested ${e(d.quota.requested)}, used ${e(d.quota.used)}, limited ${e(d.quota.limited)})${hard}`;
    }
    case 'progress-deadline':
      return `is past its progress deadline${d.deadlineSeconds === null ? '' : ` (${d.deadlineSeconds}s)`}: ${e(d.message)}`;
    case 'backoff-limit': {
      const codes = d.exits.map((x) => `${e(x.pod)} ${e(x.container)} exit ${x.exitCode ?? '?'}${x.reason === '' ? '' : ` (${e(x.reason)})`}`);
      return `gave up: ${e(d.message)}${d.backoffLimit === null ? '' : ` (backoffLimit ${d.backoffLimit}, ${plural(d.failed, 'failed Pod')})`}${codes.length === 0 ? '' : `; exit codes: ${listed(codes)}`}`;
    }
  }
}

function listed(items: string[], max = 5): string {
  return items.length > max ? `${items.slice(0, max).join(', ')} and ${items.length - max} more` : items.join(', ');
}

function subject(cause: Cause, e: Escape): string {
  const o = cause.object;
  const name = `${o.context === undefined ? '' : `${e(o.context)}: `}${e(o.kind)}/${e(o.name)}`;
  const alike = cause.alike.length === 0 ? '' : ` (and ${listed(cause.alike.map(e), 3)}, alike)`;
  return `${name}${alike}`;
}

/** `Pod/web-1: container app was killed ...` with `probably` where the cause is inferred. */
export function causeLine(cause: Cause): string {
  return causeLineWith(cause, escapeTerminal);
}

/** causeLine with another escaper (-o json's sentence: the JSON encoder escapes). */
export function causeLineWith(cause: Cause, e: Escape): string {
  const sentence = `${subject(cause, e)}: ${causeSentence(cause, e)}.`;
  return cause.certainty === 'probably' && !sentence.includes('probably') ? `Probably, ${sentence}` : sentence;
}

/** `status.containerStatuses[app].lastState.terminated.reason=OOMKilled` or `event NAME (BackOff: ...)`. */
function evidenceText(ev: Evidence): string {
  return evidenceTextWith(ev, escapeTerminal);
}

/** evidenceText with another escaper (the page's: it shows text nodes). */
export function evidenceTextWith(ev: Evidence, e: Escape): string {
  const where = ev.from === 'event' ? `event ${e(ev.path)}` : ev.from === 'log' ? `${e(ev.object)} ${e(ev.path)}` : `${e(ev.object)} ${e(ev.path)}`;
  const value = ev.value.length > 160 ? `${ev.value.slice(0, 160)}...` : ev.value;
  return ev.from === 'event' ? `${where} (${e(value)})` : ev.from === 'log' ? `${where}: ${e(value)}` : `${where}=${e(value)}`;
}

function gapLine(gap: FactGap): string {
  const e = escapeTerminal;
  const where = gap.namespace === '' ? '' : ` in ${e(gap.namespace)}`;
  const why = gap.reason === 'forbidden' ? 'forbidden' : `failed${gap.detail === undefined ? '' : `: ${e(gap.detail)}`}`;
  const missing = gap.what === 'log' ? 'the last words of exiting containers are not told' : 'causes written in their status are not told';
  return `Not read: ${e(gap.resource)}${where} (${why}): ${missing}.`;
}

interface WhyView {
  unknown?: string[];
  causes: Cause[];
  expected: Cause[];
  gaps: FactGap[];
  noStatus: boolean;
  detail: boolean;
}

/** The Why section; '' when there is nothing to say. */
export function renderWhy(why: WhyView, palette: Palette): string {
  const e = escapeTerminal;
  const lines: string[] = [];
  const shown = why.detail ? why.causes : why.causes.slice(0, WHY_CAUSES);
  for (const cause of shown) {
    lines.push(`  ${causeLine(cause)}`);
    const evidence = why.detail ? cause.evidence : cause.evidence.filter((ev) => ev.from !== 'event').slice(0, 4);
    if (why.detail) for (const ev of evidence) lines.push(`      from ${evidenceText(ev)}`);
    else if (evidence.length > 0) lines.push(`      from ${evidence.map(evidenceText).join(', ')}`);
    else if (cause.events.length > 0) lines.push(`      from ${plural(cause.events.length, 'event')}: ${listed(cause.events.map(e), 3)}`);
  }
  if (why.causes.length > shown.length) lines.push(`  and ${plural(why.causes.length - shown.length, 'more cause')} (--detail shows all).`);
  if (why.detail) for (const cause of why.expected) lines.push(`  ${causeLine(cause)}`);
  else if (why.expected.length > 0) lines.push(`  ${plural(why.expected.length, 'probe failure')} below ${why.expected.length === 1 ? 'its' : 'their'} threshold while starting: expected (--detail).`);
  const unknown = why.unknown ?? [];
  if (unknown.length > 0) lines.push(`  Status unknown (gone before it was read): ${listed(unknown.map(e), why.detail ? unknown.length : 5)}.`);
  if (why.noStatus) lines.push('  The file holds no status (written before status lines were kept): causes are told from its events alone.');
  for (const gap of why.gaps) lines.push(`  ${gapLine(gap)}`);
  if (lines.length === 0) return '';
  return [palette.bold('Why'), ...lines].join('\n');
}

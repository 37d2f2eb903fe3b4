// `causes` in `incident -o json` (README: "Why: causes"): each cause with its sentence, the plain
// values it was told from, its evidence with field paths, and the events it explains. Times in ISO.
import type { Cause, CauseDetail, Evidence } from '../core/cause-types.ts';
import type { FactGap } from '../core/facts.ts';
import type { Why } from '../core/incident.ts';
import { causeLineWith } from './causes-text.ts';
import { isoOrNull } from './time.ts';

type Iso = string | null;

interface CauseJson {
  kind: CauseDetail['kind'];
  certainty: Cause['certainty'];
  object: Cause['object'];
  alike: string[];
  at: Iso;
  /** the Why's line, unescaped (the JSON encoder escapes) */
  sentence: string;
  /** the values the sentence was made of; times in ISO */
  detail: Record<string, unknown>;
  evidence: Evidence[];
  events: string[];
  /** a probe failing below its threshold while the container starts: folded by the text */
  expected: boolean;
}

export interface WhyJson {
  causes: CauseJson[];
  /** what could not be read (a Kind the reader may not list, logs it may not read) */
  missing: FactGap[];
  /** whether object status was read (live) or held by the file; false: told from the events alone */
  status: boolean;
  /** Kind/name of objects with Warning events whose status is unknown (gone before it was read) */
  unknownStatus: string[];
}

const TIME_FIELDS = new Set(['finishedAt', 'since', 'timeAdded']);

/** A detail with its epoch-ms fields spelled as ISO, nested ones too. */
function withIsoTimes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withIsoTimes);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, TIME_FIELDS.has(k) && (typeof v === 'number' || v === null) ? isoOrNull(v) : withIsoTimes(v)]));
}

function causeJson(cause: Cause, expected: boolean): CauseJson {
  const { kind, ...detail } = cause.detail;
  return {
    kind,
    certainty: cause.certainty,
    object: cause.object,
    alike: cause.alike,
    at: isoOrNull(cause.at),
    sentence: causeLineWith(cause, (text) => text),
    detail: withIsoTimes(detail) as Record<string, unknown>,
    evidence: cause.evidence,
    events: cause.events,
    expected,
  };
}

export function toWhyJson(why: Why): WhyJson {
  return { causes: [...why.causes.map((c) => causeJson(c, false)), ...why.expected.map((c) => causeJson(c, true))], missing: why.gaps, status: why.withFacts, unknownStatus: why.unknown };
}

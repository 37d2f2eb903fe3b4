// The time axis's ticks: clock steps up to a week, then calendar months, years, decades, centuries.
import { iso } from './text.ts';

const MAX_TICKS = 24;
const MS_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 15e3, 3e4, 6e4, 12e4, 3e5, 6e5, 9e5, 18e5, 36e5, 72e5, 108e5, 216e5, 432e5, 864e5, 1728e5, 6048e5];
/** In months: a month, a quarter, half a year, then 1, 2, 5, 10, 20, 50 ... years up to Date's range. */
const MONTH_STEPS = [1, 3, 6, ...[1, 10, 100, 1e3, 1e4, 1e5].flatMap((p) => [p, 2 * p, 5 * p]).map((years) => years * 12)];
const AVERAGE_MONTH = 2_629_746_000;
type TickStep = { ms: number } | { months: number };
/** The finest step that leaves at least 110 px between labels, and never more than MAX_TICKS of them. */
function tickStep(span: number, width: number): TickStep {
  const most = Math.max(2, Math.min(MAX_TICKS, width / 110));
  const ms = MS_STEPS.find((s) => span / s <= most);
  if (ms !== undefined) return { ms };
  return { months: MONTH_STEPS.find((m) => span / (m * AVERAGE_MONTH) <= most) ?? (MONTH_STEPS.at(-1) as number) };
}
/** Midnight UTC of the first of a month, counted in months from year 0 (Date.UTC reads years 0-99 as 19xx). */
function monthStart(index: number): number {
  const d = new Date(0);
  d.setUTCFullYear(Math.floor(index / 12), ((index % 12) + 12) % 12, 1);
  return d.getTime();
}
const yearOf = (ms: number): string => {
  const y = new Date(ms).getUTCFullYear();
  return y < 0 ? String(y) : String(y).padStart(4, '0');
};
function tickLabel(ms: number, step: TickStep, span: number): string {
  const t = iso(ms);
  const date = t.slice(0, t.indexOf('T'));
  if ('months' in step) return step.months % 12 === 0 ? yearOf(ms) : date.slice(0, date.lastIndexOf('-'));
  const clock = t.slice(t.indexOf('T') + 1);
  if (step.ms < 1000) return clock.slice(0, 12);
  if (step.ms < 60_000) return clock.slice(0, 8);
  if (step.ms < 86_400_000) return span > 86_400_000 ? `${date.slice(-5)} ${clock.slice(0, 5)}` : clock.slice(0, 5);
  return date;
}
/** The axis's ticks between start and end: at most MAX_TICKS, whatever the span. */
export function axisTicks(start: number, end: number, width: number): { ms: number; label: string }[] {
  const step = tickStep(end - start, width);
  const ticks: { ms: number; label: string }[] = [];
  if ('ms' in step) {
    for (let ms = Math.ceil(start / step.ms) * step.ms; ms <= end && ticks.length < MAX_TICKS; ms += step.ms) ticks.push({ ms, label: tickLabel(ms, step, end - start) });
    return ticks;
  }
  const from = new Date(start);
  let index = Math.ceil((from.getUTCFullYear() * 12 + from.getUTCMonth()) / step.months) * step.months;
  for (let ms = monthStart(index); ms <= end && ticks.length < MAX_TICKS; index += step.months, ms = monthStart(index)) {
    if (ms >= start) ticks.push({ ms, label: tickLabel(ms, step, end - start) });
  }
  return ticks;
}


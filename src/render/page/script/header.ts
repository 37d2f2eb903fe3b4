/// <reference lib="dom" />
// The words above the lanes: the title, the incident's headline, its causes (each a link to the
// events it explains), the facts a reader needs to trust the picture (the window, the capture, the
// TTL horizon, events dated far off or not at all), and the legend of the marks.

import type { Model } from './model.ts';
import { spanSwatch } from './shapes.ts';
import { el, iso, length, plural, visible } from './text.ts';

/** The header, appended to `app`; a click on a cause's event calls `showEvent` with its index. */
export function header(app: HTMLElement, model: Model, showEvent: (i: number) => void): void {
  const { data } = model;
  const top = el('header');
  top.append(el('h1', '', `Event timeline: ${visible(data.scope)}`));
  const headline = el('ul', 'headline');
  for (const line of data.headline) headline.append(el('li', '', line.trim()));
  top.append(headline);
  // The causes above the lanes, each linked to the events it explains: a click selects the event's mark.
  if (data.causes.length > 0) {
    const why = el('section', 'why');
    why.setAttribute('aria-label', 'Why');
    why.append(el('h2', '', 'Why'));
    const list = el('ul', 'causes');
    for (const cause of data.causes) {
      const item = el('li', 'cause', visible(cause.line));
      if (cause.evidence.length > 0) item.title = visible(cause.evidence.join('\n'));
      for (const i of cause.events.slice(0, 5)) {
        const link = el('button', 'cause-event', visible(data.strings[model.events[i]?.[1] ?? -1] ?? ''));
        link.type = 'button';
        link.title = 'Show this event on the timeline';
        link.addEventListener('click', () => showEvent(i));
        item.append(' ', link);
      }
      if (cause.events.length > 5) item.append(` and ${plural(cause.events.length - 5, 'more event')}`);
      list.append(item);
    }
    why.append(list);
    top.append(why);
  }
  for (const fact of facts(model)) top.append(el('p', 'facts', fact));
  app.append(top);
}

function facts(model: Model): string[] {
  const { data } = model;
  const lines: string[] = [];
  if (data.window !== null) {
    lines.push(`The events cover ${iso(data.window[0])} to ${iso(data.window[1])} (${length(data.window[1] - data.window[0])}).`);
  }
  if (data.observed !== null) lines.push(`The record observed from ${iso(data.observed[0])} to ${iso(data.observed[1])}.`);
  lines.push(`Read at ${iso(data.capturedAt)}.`);
  lines.push(
    `The API server deletes an event ${length(data.eventTTLms)} after its last write (--event-ttl): whatever was not written since ${iso(data.ttlHorizon)} was gone before it was read, so the story may begin earlier than it seems.`,
  );
  const far = model.farDated();
  if (far.count > 0) lines.push(farFact(model, far));
  if (model.untimed > 0) lines.push(`${plural(model.untimed, 'event')} carry no time and are listed without marks.`);
  return lines;
}

function farFact(model: Model, { count, times }: { count: number; times: number[] }): string {
  const shown = times.slice(0, 3).map(iso).join(', ') + (times.length > 3 ? ` and ${plural(times.length - 3, 'other time')}` : '');
  const edges = [times.some((t) => t < model.scaleFrom) ? 'left' : '', times.some((t) => t > model.scaleTo) ? 'right' : ''].filter((e) => e !== '');
  const one = count === 1;
  return `${plural(count, 'event')} ${one ? 'is' : 'are'} dated far from the capture (${shown}): ${one ? 'it is' : 'they are'} drawn at the ${edges.join(' and ')} edge${edges.length > 1 ? 's' : ''}, not to scale, marked with an arrow and the date; hover for the exact time.`;
}

/** The legend of the marks and shades, appended to `app`. */
export function legend(app: HTMLElement): void {
  const box = el('div', 'legend');
  const legendItem = (swatch: Element, text: string): void => {
    const item = el('span');
    item.append(swatch, document.createTextNode(text));
    box.append(item);
  };
  legendItem(spanSwatch(), 'repeated event: first to last seen, \u00D7count');
  legendItem(el('span', 'swatch-shade window'), 'the window the events cover');
  legendItem(el('span', 'swatch-shade ttl'), 'before the TTL horizon: events last written then were already deleted');
  legendItem(el('span', 'swatch-line'), 'capture time');
  app.append(box);
}

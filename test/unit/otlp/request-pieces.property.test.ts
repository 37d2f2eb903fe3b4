// Property tests of src/otlp/request-pieces.ts: however the text is cut into chunks, the same
// pieces; the elements of an export request line are its resourceLogs array's elements, whatever
// strings they hold.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { requestPieces } from '../../../src/otlp/request-pieces.ts';

/** `text` cut at `cuts` (positions, any order, repeats allowed). */
function chunked(text: string, cuts: number[]): string[] {
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let from = 0;
  for (const c of at) {
    chunks.push(text.slice(from, c));
    from = c;
  }
  chunks.push(text.slice(from));
  return chunks;
}

const resource = fc.record({
  resource: fc.record({ attributes: fc.array(fc.record({ key: fc.string(), value: fc.record({ stringValue: fc.string() }) }), { maxLength: 3 }) }),
  scopeLogs: fc.array(fc.record({ logRecords: fc.array(fc.record({ body: fc.record({ stringValue: fc.string({ unit: 'grapheme' }) }) }), { maxLength: 3 }) }), { maxLength: 2 }),
});

/** A line as the file exporter writes one, or any other text without a newline. */
const lineOf = fc.oneof(
  fc.array(resource, { maxLength: 4 }).map((rs) => ({ request: true, rs, text: JSON.stringify({ resourceLogs: rs }) })),
  fc.string().filter((t) => !t.includes('\n')).map((text) => ({ request: false, rs: [], text })),
);

describe('request pieces', () => {
  test('the same pieces however the text arrives; a request line\'s elements parse to its resources', () => {
    fc.assert(
      fc.property(fc.array(lineOf, { minLength: 1, maxLength: 5 }), fc.boolean(), fc.array(fc.nat(), { maxLength: 30 }), (lines, newlineAtEnd, cuts) => {
        const text = lines.map((l) => l.text).join('\n') + (newlineAtEnd ? '\n' : '');
        const once = [...requestPieces([text])];
        assert.deepEqual([...requestPieces(chunked(text, cuts))], once);
        for (const [i, l] of lines.entries()) {
          const mine = once.filter((p) => p.line === i);
          if (l.request) {
            assert.deepEqual(mine.filter((p) => p.kind === 'element').map((p) => JSON.parse((p as { text: string }).text)), JSON.parse(JSON.stringify(l.rs)));
            assert.deepEqual(mine.at(-1), { kind: 'end', line: i, ok: true, complete: i < lines.length - 1 || newlineAtEnd });
          } else if (l.text !== '' || i < lines.length - 1 || newlineAtEnd) {
            // Another line whole (one that starts like a request but is not one ends not ok).
            const last = mine.at(-1);
            assert.ok(last?.kind === 'line' ? last.text === l.text : last?.kind === 'end' && !last.ok, JSON.stringify(mine));
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  test('a line torn inside an element ends not ok and not complete; one torn after it, not ok', () => {
    const text = JSON.stringify({ resourceLogs: [{ a: '],"}' }, { b: [1, 2] }] });
    for (let cut = 18; cut < text.length - 1; cut++) {
      const pieces = [...requestPieces([text.slice(0, cut)])];
      assert.deepEqual(pieces.at(-1), { kind: 'end', line: 0, ok: false, complete: false }, `cut at ${cut}`);
    }
  });
});

// A gzip answer (src/kube/gzip-answer.ts) inflates to the bytes that were compressed, handed on in
// pieces small enough to stay out of V8's large-object space; one that stops short, is not gzip or
// inflates past the limit is a failure in zlib's words (the caller then drops what it was handed);
// what the reader behind it throws is passed on as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { GzipAnswer, isGzip } from '../../../src/kube/gzip-answer.ts';

/** `text` compressed as the API server does (level 1), fed in pieces of `piece` bytes; what came out, piece by piece. */
async function inflate(body: Buffer, piece: number, max = 1 << 30): Promise<{ out: Buffer[]; failure: Awaited<ReturnType<GzipAnswer['end']>> }> {
  const out: Buffer[] = [];
  const answer = new GzipAnswer({ push: (chunk) => void out.push(Buffer.from(chunk)) }, max);
  for (let at = 0; at < body.length; at += piece) answer.push(body.subarray(at, at + piece));
  return { out, failure: await answer.end() };
}

const page = JSON.stringify({ kind: 'EventList', items: Array.from({ length: 2000 }, (_, i) => ({ metadata: { name: `e${i}` }, message: `Back-off ${i} 日本 😀 "\\` })) });

for (const piece of [1, 2048, 1 << 20]) {
  test(`a page sent in ${piece}-byte chunks inflates to its text, in pieces of at most 32 KiB`, async () => {
    const { out, failure } = await inflate(gzipSync(page, { level: 1 }), piece);
    assert.equal(failure, null);
    assert.equal(Buffer.concat(out).toString('utf8'), page);
    assert.ok(out.length > 1 && out.every((chunk) => chunk.length <= 32 * 1024), out.map((c) => c.length).join(' '));
  });
}

test('an empty body is not gzip: a failure, not an empty answer', async () => {
  assert.deepEqual((await inflate(Buffer.alloc(0), 1)).failure, { kind: 'broken', why: 'unexpected end of file' });
});

test('a body that stops part-way is a failure in zlib words (what came before it is handed on; the caller throws it all away)', async () => {
  const body = gzipSync(page, { level: 1 });
  const { out, failure } = await inflate(body.subarray(0, Math.floor(body.length / 2)), 2048);
  assert.deepEqual(failure, { kind: 'broken', why: 'unexpected end of file' });
  assert.ok(page.startsWith(Buffer.concat(out).toString('utf8')));
});

test('a body that is not gzip (the JSON itself, labelled gzip) is a failure', async () => {
  assert.deepEqual((await inflate(Buffer.from(page), 2048)).failure, { kind: 'broken', why: 'incorrect header check' });
});

test('a body whose data is damaged is a failure', async () => {
  const body = Buffer.from(gzipSync(page, { level: 1 }));
  for (let at = 20; at < 60; at += 1) body[at] = 0xff;
  assert.equal((await inflate(body, 2048)).failure?.kind, 'broken');
});

test('a body that inflates past the limit is too large, whatever its compressed size, and no more than the limit is handed on', async () => {
  const bomb = gzipSync(Buffer.alloc(4 << 20, 0x20));
  assert.ok(bomb.length < 16 * 1024);
  const over = await inflate(bomb, 2048, 1 << 20);
  assert.deepEqual(over.failure, { kind: 'too-large' });
  assert.ok(Buffer.concat(over.out).length <= 1 << 20);
  assert.equal((await inflate(bomb, 2048, 4 << 20)).failure, null);
});

test("what the reader behind it throws (an item it cannot read) is thrown as it is, and it is given nothing more", async () => {
  let calls = 0;
  const answer = new GzipAnswer({ push: () => { calls += 1; throw new RangeError('the reader gave up'); } }, 1 << 30);
  answer.push(gzipSync(page));
  await assert.rejects(answer.end(), new RangeError('the reader gave up'));
  assert.equal(calls, 1);
});

for (const [header, want] of [
  ['gzip', true],
  ['GZIP', true],
  [' gzip ', true],
  [undefined, false],
  ['', false],
  ['identity', false],
  ['br', false],
  ['gzip, br', false],
] as const) {
  test(`Content-Encoding ${JSON.stringify(header)} is ${want ? '' : 'not '}read as gzip`, () => assert.equal(isGzip(header), want));
}

/**
 * Issue 39, item 2: a CSV upload's body is decoded chunk by chunk as it arrives (src/http/text-body.ts)
 * instead of concatenated and decoded at once at its end. It reads as before, and is refused as before.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, before, test } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { textBodyParser } from '../../src/http/text-body.ts';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';

/** The parser's answer for a body sent as these chunks, with this Content-Length. */
function parse(chunks: Buffer[], contentLength: number | undefined, limit = 1_000): Promise<{ body?: string; code?: string }> {
  const stream = new PassThrough();
  const request = { headers: contentLength === undefined ? {} : { 'content-length': String(contentLength) } } as unknown as FastifyRequest;
  const answer = new Promise<{ body?: string; code?: string }>((resolve) =>
    textBodyParser(limit)(request, stream, (err, body) => resolve(err ? { code: (err as Error & { code: string }).code } : { body: body! })),
  );
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  return answer;
}

test('a character split between two chunks is read whole', async () => {
  const bytes = Buffer.from('member_first_name\nJosé\n', 'utf8');
  const cut = bytes.indexOf(0xa9); // the second byte of é
  assert.deepEqual(await parse([bytes.subarray(0, cut), bytes.subarray(cut)], bytes.length), { body: 'member_first_name\nJosé\n' });
  assert.deepEqual(await parse([Buffer.from('\uFEFFa,b\n')], undefined), { body: '\uFEFFa,b\n' });
});

test('a body past the limit, or not of its Content-Length, is refused with fastify’s codes', async () => {
  assert.deepEqual(await parse([Buffer.alloc(10)], 1_001), { code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
  assert.deepEqual(await parse([Buffer.alloc(600), Buffer.alloc(600)], undefined), { code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
  assert.deepEqual(await parse([Buffer.alloc(10)], 11), { code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH' });
});

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('an upload past 8 MiB is refused 413 by both CSV routes', async () => {
  const body = `member_id\n${'\n'.repeat(8 * 1024 * 1024)}`;
  for (const path of ['/v1/batches', '/v1/monitors/bulk']) {
    const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { apikey: TEST_KEY, 'content-type': 'text/csv' }, body });
    assert.equal(res.status, 413, path);
    assert.equal(((await res.json()) as { error_code: string }).error_code, 'PAYLOAD_TOO_LARGE');
  }
});

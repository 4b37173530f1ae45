/**
 * Slow clients and oversized requests: a client that dribbles its request is cut off with a 408,
 * an oversized one gets a 413 (or 431 for headers), others keep being served meanwhile, and the
 * server is healthy and still right afterwards. Timeouts are shortened for the test server.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';
import { assertHealthy, assertWellFormed, liftRateLimit, parseRaw, RawClient, send, VALID } from './attack.ts';

const REQUEST_TIMEOUT_MS = 1000;
let server: TestServer;
before(async () => {
  server = await startTestServer({ env: { COVERAGE_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) } });
  await liftRateLimit(server);
});
after(() => server.close());
afterEach(() => assertHealthy(server));

const BODY = JSON.stringify(VALID['/v1/estimate']);
const head = (extra: string) => `POST /v1/estimate HTTP/1.1\r\nHost: 127.0.0.1\r\napikey: ${TEST_KEY}\r\nContent-Type: application/json\r\n${extra}\r\n`;
const FULL = head(`Content-Length: ${Buffer.byteLength(BODY)}\r\n`) + BODY;

/** The server's answer to a client it cut off: a 408 in the error shape (or nothing, if the socket was already gone). */
function assertCutOff(raw: string, sent: number, total: number): void {
  assert.ok(sent < total, `the whole request (${total} bytes) was accepted at a byte every few ms`);
  if (raw === '') return;
  const { status, body } = parseRaw(raw);
  assert.equal(status, 408, raw);
  assert.equal((body as { error_code?: string }).error_code, 'INVALID_REQUEST');
}

describe('slow clients', () => {
  test('headers sent a byte at a time are cut off', { timeout: 60_000 }, async () => {
    const client = new RawClient(server.url);
    // 50 ms a byte: the request would take far longer than the server's limit.
    const sent = await client.dribble(FULL, 50);
    assertCutOff(await client.closed, sent, FULL.length);
  });

  test('a body sent a byte at a time is cut off', { timeout: 60_000 }, async () => {
    const client = new RawClient(server.url);
    client.write(head(`Content-Length: ${Buffer.byteLength(BODY)}\r\n`));
    const sent = await client.dribble(BODY, 50);
    assertCutOff(await client.closed, sent, BODY.length);
  });

  test('a connection that never sends a byte is closed', { timeout: 60_000 }, async () => {
    const client = new RawClient(server.url);
    const raw = await client.closed;
    if (raw !== '') assert.equal(parseRaw(raw).status, 408);
  });

  test('fifty slow clients at once do not keep others from being served', { timeout: 60_000 }, async () => {
    const slow = Array.from({ length: 50 }, () => new RawClient(server.url));
    const dribbles = slow.map((c) => c.dribble(FULL, 40));
    // While every slow client holds its socket, a normal client is answered, correctly.
    await assertHealthy(server);
    const sent = await Promise.all(dribbles);
    const raws = await Promise.all(slow.map((c) => c.closed));
    raws.forEach((raw, i) => assertCutOff(raw, sent[i]!, FULL.length));
  });

  test('a body shorter than its Content-Length, then a half-closed socket', { timeout: 60_000 }, async () => {
    const client = new RawClient(server.url);
    client.write(head('Content-Length: 500\r\n') + BODY.slice(0, 40));
    client.socket.end();
    const raw = await client.closed;
    if (raw !== '') assertWellFormed({ ...parseRaw(raw), text: raw }, 'short body');
  });
});

describe('oversized requests', () => {
  test('a JSON body over 64 KiB gets 413 PAYLOAD_TOO_LARGE', async () => {
    const big = JSON.stringify({ ...VALID['/v1/estimate'], member_first_name: 'A'.repeat(64 * 1024) });
    const answer = await send(server, '/v1/estimate', big);
    assert.equal(answer.status, 413, answer.text);
    assert.equal((answer.body as { error_code: string }).error_code, 'PAYLOAD_TOO_LARGE');
  });

  test('a Content-Length of 10 MB is refused before the body is read', { timeout: 60_000 }, async () => {
    const client = new RawClient(server.url);
    client.write(head('Content-Length: 10485760\r\n') + '{"member_id":');
    const { status, body } = parseRaw(
      await client.closed.then(
        (raw) => raw,
        () => '',
      ),
    );
    assert.equal(status, 413);
    assert.equal((body as { error_code: string }).error_code, 'PAYLOAD_TOO_LARGE');
  });

  test('a chunked body that grows past the limit gets 413', { timeout: 60_000 }, async () => {
    const client = new RawClient(server.url);
    client.write(head('Transfer-Encoding: chunked\r\n'));
    const chunk = 'A'.repeat(16 * 1024);
    for (let i = 0; i < 6 && !client.isClosed; i++) {
      client.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      await new Promise((r) => setTimeout(r, 10));
    }
    const { status, body } = parseRaw(await client.closed);
    assert.equal(status, 413);
    assert.equal((body as { error_code: string }).error_code, 'PAYLOAD_TOO_LARGE');
  });

  test('headers over the HTTP limit get 431 in the error shape', { timeout: 60_000 }, async () => {
    const client = new RawClient(server.url);
    client.write(head(`X-Padding: ${'a'.repeat(20_000)}\r\n`));
    const { status, body } = parseRaw(await client.closed);
    assert.equal(status, 431);
    assert.equal((body as { error_code: string }).error_code, 'PAYLOAD_TOO_LARGE');
  });
});

/** 429s are retried after Retry-After, a bounded number of times; the wait and the clock are injected, so no test sleeps or races the clock. */
import assert from 'node:assert/strict';
import { after, before, describe, mock, test } from 'node:test';
import { retryAfterMs } from '../../packages/client/src/retry-after.ts';
import { CoverageApiError, CoverageClient } from '../../src/index.ts';
import { checkerForServer, checkingFetch } from '../helpers/openapi-check.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const scanBody = { member_first_name: 'Keisha', member_last_name: 'Daniels', member_dob: '1997-04-14', zip: '10001' };
const tooMany = (retryAfter?: string) =>
  new Response(JSON.stringify({ error_code: 'TOO_MANY_REQUESTS', message: 'slow down', request_id: 'req-429' }), {
    status: 429,
    headers: { 'content-type': 'application/json', ...(retryAfter !== undefined ? { 'retry-after': retryAfter } : {}) },
  });
const ok = () => new Response(JSON.stringify({ payer_id: 'SBX-COMMUNITY' }), { status: 200, headers: { 'content-type': 'application/json' } });

function scripted(...answers: (() => Response)[]) {
  const calls: string[] = [];
  const waits: number[] = [];
  const fetch: typeof globalThis.fetch = async (input) => {
    calls.push(input instanceof Request ? input.url : input.toString());
    const next = answers[Math.min(calls.length - 1, answers.length - 1)]!;
    return next();
  };
  const sleep = async (ms: number) => {
    waits.push(ms);
  };
  return { calls, waits, fetch, sleep };
}

async function rejection(promise: Promise<unknown>): Promise<CoverageApiError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(err instanceof CoverageApiError, String(err));
  return err;
}

describe('with a scripted server', () => {
  test('waits Retry-After seconds and returns the answer that follows', async () => {
    const s = scripted(
      () => tooMany('3'),
      () => tooMany('1'),
      ok,
    );
    const retries: number[] = [];
    const client = new CoverageClient({ baseUrl: 'http://svc.invalid', apiKey: 'k', fetch: s.fetch, sleep: s.sleep, onRetry: (r) => retries.push(r.attempt) });
    const result = await client.scan(scanBody);
    assert.equal(result.payer_id, 'SBX-COMMUNITY');
    assert.deepEqual(s.waits, [3000, 1000]);
    assert.deepEqual(retries, [1, 2]);
    assert.equal(s.calls.length, 3);
  });

  test('gives up after maxRetries and throws the last 429 with its Retry-After', async () => {
    const s = scripted(() => tooMany('2'));
    const client = new CoverageClient({ baseUrl: 'http://svc.invalid', apiKey: 'k', fetch: s.fetch, sleep: s.sleep, maxRetries: 2 });
    const err = await rejection(client.scan(scanBody));
    assert.equal(err.status, 429);
    assert.equal(err.error_code, 'TOO_MANY_REQUESTS');
    assert.equal(err.retry_after_seconds, 2);
    assert.equal(s.calls.length, 3);
    assert.deepEqual(s.waits, [2000, 2000]);
  });

  test('maxRetries 0 does not retry', async () => {
    const s = scripted(() => tooMany('1'), ok);
    await rejection(new CoverageClient({ baseUrl: 'http://svc.invalid', apiKey: 'k', fetch: s.fetch, sleep: s.sleep, maxRetries: 0 }).scan(scanBody));
    assert.equal(s.calls.length, 1);
  });

  test('a wait longer than maxRetryDelayMs is thrown at once', async () => {
    const s = scripted(() => tooMany('600'), ok);
    const err = await rejection(
      new CoverageClient({ baseUrl: 'http://svc.invalid', apiKey: 'k', fetch: s.fetch, sleep: s.sleep, maxRetryDelayMs: 60_000 }).scan(scanBody),
    );
    assert.equal(err.retry_after_seconds, 600);
    assert.equal(s.calls.length, 1);
    assert.deepEqual(s.waits, []);
  });

  test('without Retry-After the waits back off: 1 s, then 2 s', async () => {
    const s = scripted(
      () => tooMany(),
      () => tooMany(),
      ok,
    );
    await new CoverageClient({ baseUrl: 'http://svc.invalid', apiKey: 'k', fetch: s.fetch, sleep: s.sleep }).scan(scanBody);
    assert.deepEqual(s.waits, [1000, 2000]);
  });

  test('a Retry-After HTTP date is measured against the injected clock', async () => {
    const s = scripted(() => tooMany('Mon, 15 Jun 2026 12:00:45 GMT'), ok);
    const now = () => Date.parse('2026-06-15T12:00:00Z');
    await new CoverageClient({ baseUrl: 'http://svc.invalid', apiKey: 'k', fetch: s.fetch, sleep: s.sleep, now }).scan(scanBody);
    assert.deepEqual(s.waits, [45_000]);
    const later = scripted(() => tooMany('Mon, 15 Jun 2026 12:00:45 GMT'), ok);
    const err = await rejection(
      new CoverageClient({ baseUrl: 'http://svc.invalid', apiKey: 'k', fetch: later.fetch, sleep: later.sleep, now, maxRetryDelayMs: 30_000 }).scan(scanBody),
    );
    assert.equal(err.retry_after_seconds, 45);
    assert.deepEqual(later.waits, []);
  });

  test('other errors are not retried', async () => {
    const s = scripted(() => new Response(JSON.stringify({ error_code: 'PAYER_FAILURE', message: 'down', request_id: 'r' }), { status: 502 }), ok);
    const err = await rejection(new CoverageClient({ baseUrl: 'http://svc.invalid', apiKey: 'k', fetch: s.fetch, sleep: s.sleep }).scan(scanBody));
    assert.equal(err.error_code, 'PAYER_FAILURE');
    assert.equal(s.calls.length, 1);
  });
});

test('Retry-After is read as seconds or as an HTTP date', () => {
  const now = Date.parse('2026-06-15T12:00:00Z');
  assert.equal(retryAfterMs('120', now), 120_000);
  assert.equal(retryAfterMs(' 0 ', now), 0);
  assert.equal(retryAfterMs('Mon, 15 Jun 2026 12:00:30 GMT', now), 30_000);
  assert.equal(retryAfterMs('Mon, 15 Jun 2026 11:00:00 GMT', now), 0);
  assert.equal(retryAfterMs('soon', now), null);
  assert.equal(retryAfterMs(null, now), null);
});

describe('against the service rate limit', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test("a key past its checks per minute is retried after the server's Retry-After, then gets the 429", async () => {
    const { secret } = await server.runtime.keys.create({ name: 'one a minute', env: 'sandbox', rate_limit_per_minute: 1 });
    const waits: number[] = [];
    const fetch = checkingFetch(await checkerForServer(server.url), server.url);
    const client = new CoverageClient({ baseUrl: server.url, apiKey: secret, fetch, maxRetries: 1, sleep: async (ms) => void waits.push(ms) });
    // The server's window is measured with Date; frozen, both 429s name the whole 60-second window
    // instead of 60 or 59 depending on when a second boundary falls between them.
    mock.timers.enable({ apis: ['Date'], now: Date.parse('2026-06-15T12:00:00Z') });
    try {
      assert.equal((await client.scan(scanBody)).payer_id, 'SBX-COMMUNITY');
      const err = await rejection(client.scan(scanBody));
      assert.equal(err.status, 429);
      assert.equal(err.error_code, 'TOO_MANY_REQUESTS');
      assert.deepEqual(waits, [60_000]);
      assert.equal(err.retry_after_seconds, 60);
    } finally {
      mock.timers.reset();
    }
  });
});

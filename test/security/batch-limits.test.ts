/**
 * Issue 17, finding 2: one POST /v1/batches with a 7 MB CSV header of unknown columns built a 23 MB
 * error and stalled the server. A refusal is now small whatever was sent, and batch creation has
 * its own per-key budget.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer({ env: { COVERAGE_BATCH_CREATE_PER_MINUTE: '4' } });
});
after(() => server.close());

const CHECK = { endpoint: 'estimate', request: { member_id: '10010MHNA', member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14' } };

test('a 7 MB header of unknown columns gets a small 400, and the server answers the next request', async () => {
  const header = Array.from({ length: 800_000 }, (_, i) => `col${i}`).join(',');
  assert.ok(header.length > 7_000_000);
  const res = await fetch(`${server.url}/v1/batches`, {
    method: 'POST',
    headers: { apikey: TEST_KEY, 'content-type': 'text/csv' },
    body: `${header}\n10010MHNA,1988-03-14\n`,
  });
  const text = await res.text();
  assert.equal(res.status, 400);
  assert.ok(text.length < 2_000, `${text.length} bytes of answer`);
  const body = JSON.parse(text);
  assert.equal(body.error_code, 'INVALID_REQUEST');
  assert.deepEqual(
    body.errors.map((e: any) => e.field),
    ['header'],
  );

  const next = await server.post('/v1/batches', { checks: [CHECK] });
  assert.equal(next.status, 202);
});

test('a header within the limits, every column unknown, still answers a bounded list', async () => {
  const header = Array.from({ length: 60 }, (_, i) => `${'x'.repeat(60)}${i}`).join(',');
  const res = await server.post('/v1/batches', `${header}\n`, { 'content-type': 'text/csv' });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors.length, 60);
  assert.ok(JSON.stringify(res.body).length < 10_000);
  assert.ok(res.body.message.length < 1_200, res.body.message);
  assert.match(res.body.message, /and 57 more\. Nothing was queued$/);
});

test('batch creation has its own per-key budget: past it 429 with Retry-After; other keys are not affected', async () => {
  const { secret } = await server.runtime.keys.create({ name: 'busy practice', env: 'sandbox', rate_limit_per_minute: 1000 });
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) statuses.push((await server.post('/v1/batches', i % 2 ? { checks: [CHECK] } : { checks: [] }, { apikey: secret })).status);
  assert.deepEqual(statuses, [400, 202, 400, 202], 'refused uploads count too: each one was read');
  const over = await server.post('/v1/batches', { checks: [CHECK] }, { apikey: secret });
  assert.equal(over.status, 429);
  assert.equal(over.body.error_code, 'TOO_MANY_REQUESTS');
  assert.match(over.body.message, /At most 4 batches a minute/);
  assert.ok(Number(over.headers.get('retry-after')) > 0);
  // Reading progress is not creation: it stays open.
  assert.equal((await server.get('/v1/batches/bat_000000000000000000000000', { apikey: secret })).status, 404);
  const { secret: other } = await server.runtime.keys.create({ name: 'quiet practice', env: 'sandbox' });
  assert.equal((await server.post('/v1/batches', { checks: [CHECK] }, { apikey: other })).status, 202);
});

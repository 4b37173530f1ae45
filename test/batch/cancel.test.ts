/**
 * Issue 17, finding 5: a revoked key's batches kept running and nothing cancelled a batch.
 * DELETE /v1/batches/{id} cancels (rows not started end as `cancelled`), revoking the key cancels
 * its batches within a poll, and a rotated key's successor reaches (and keeps running) its batches.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parseCsv } from '../../src/formats/csv.ts';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';
import { waitForBatch } from './helpers.ts';
import { eventually } from '../helpers/eventually.ts';

let server: TestServer;
before(async () => {
  // One row at a time, so a big batch is still running when it is cancelled.
  server = await startTestServer({
    env: { COVERAGE_BATCH_CONCURRENCY: '1', COVERAGE_BATCH_PER_PAYER: '1', COVERAGE_BATCH_POLL_MS: '100', COVERAGE_BATCH_CREATE_PER_MINUTE: '1000' },
  });
});
after(() => server.close());

const schedule = (rows: number) => ({
  checks: Array.from({ length: rows }, (_, i) => ({
    endpoint: 'estimate',
    request: { member_id: `${i + 1}MHNA`, member_first_name: '', member_last_name: '', member_dob: '1980-01-01' },
  })),
});

async function rowStates(id: string): Promise<Record<string, number>> {
  const rows = await server.runtime.db.kysely.selectFrom('batch_rows').select('state').where('batch_id', '=', id).execute();
  const counts: Record<string, number> = {};
  for (const r of rows) counts[r.state] = (counts[r.state] ?? 0) + 1;
  return counts;
}

test('DELETE cancels: rows not started end cancelled, the answer is the summary; another key gets 404', async () => {
  const created = await server.post('/v1/batches', schedule(3000));
  assert.equal(created.status, 202);
  const id = created.body.id;
  await waitForBatch(server.url, TEST_KEY, id, { until: (p) => p.done >= 5 });

  const other = (await server.runtime.keys.create({ name: 'other practice', env: 'sandbox' })).secret;
  const refused = await server.delete(`/v1/batches/${id}`, { apikey: other });
  assert.equal(refused.status, 404);
  assert.equal((await rowStates(id)).cancelled, undefined, 'another key cancels nothing');

  const res = await server.delete(`/v1/batches/${id}`);
  assert.equal(res.status, 200);
  assert.equal(res.body.id, id);
  assert.equal(res.body.status, 'cancelled');
  assert.equal(res.body.pending, 0);
  assert.ok(res.body.cancelled > 0);
  assert.equal(res.body.done + res.body.running + res.body.cancelled, 3000);

  await eventually('the rows in progress finish', async () => (await rowStates(id)).running === undefined);
  const progress = await server.get(`/v1/batches/${id}`);
  assert.equal(progress.body.status, 'cancelled');
  assert.ok(progress.body.completed_at);
  const states = await rowStates(id);
  assert.equal(states.pending, undefined, 'nothing left to run');
  assert.equal(states.done! + states.cancelled!, 3000);

  const cancelled = await server.get(`/v1/batches/${id}/results?outcome=CANCELLED&limit=2`);
  assert.deepEqual(
    cancelled.body.results.map((r: any) => [r.state, r.status, r.body]),
    [
      ['cancelled', null, null],
      ['cancelled', null, null],
    ],
  );
  const csv = await fetch(`${server.url}/v1/batches/${id}/results?outcome=CANCELLED&limit=1`, { headers: { apikey: TEST_KEY, accept: 'text/csv' } });
  const [header, line] = parseCsv(await csv.text()).map((r) => r.cells);
  assert.equal(line![header!.indexOf('outcome')], 'CANCELLED');

  const again = await server.delete(`/v1/batches/${id}`);
  assert.equal(again.status, 200, 'cancelling twice is harmless');
  assert.equal(again.body.cancelled, states.cancelled);
  assert.equal((await server.delete('/v1/batches/bat_000000000000000000000000')).status, 404);
});

test('cancelling a finished batch changes nothing', async () => {
  const created = await server.post('/v1/batches', schedule(2));
  await waitForBatch(server.url, TEST_KEY, created.body.id);
  const res = await server.delete(`/v1/batches/${created.body.id}`);
  assert.equal(res.status, 200);
  assert.equal(res.body.status, 'completed');
  assert.equal(res.body.cancelled, 0);
});

test('revoking a key cancels its running batches: the remaining rows end cancelled', async () => {
  const { key, secret } = await server.runtime.keys.create({ name: 'leaving practice', env: 'sandbox' });
  const created = await server.post('/v1/batches', schedule(3000), { apikey: secret });
  assert.equal(created.status, 202);
  const id = created.body.id;
  await waitForBatch(server.url, secret, id, { until: (p) => p.done >= 3 });
  assert.ok(await server.runtime.keys.revoke(key.id));

  await eventually('the revoked key’s rows are cancelled and the running ones finished', async () => {
    const s = await rowStates(id);
    return s.pending === undefined && s.running === undefined;
  });
  const states = await rowStates(id);
  assert.ok(states.cancelled! > 0, JSON.stringify(states));
  assert.equal(states.done! + states.cancelled!, 3000);
  assert.equal((await server.get(`/v1/batches/${id}`, { apikey: secret })).status, 401, 'the revoked key reads nothing either');
});

test('a rotated key hands its batches to its successor: reachable, and still running', async () => {
  const { key, secret } = await server.runtime.keys.create({ name: 'rotating practice', env: 'sandbox' });
  const created = await server.post('/v1/batches', schedule(3000), { apikey: secret });
  const id = created.body.id;
  await waitForBatch(server.url, secret, id, { until: (p) => p.done >= 2 });
  const rotated = await server.runtime.keys.rotate(key.id);
  assert.ok(rotated);
  assert.equal(rotated.key.owner_id, key.id, 'the new key inherits the owner');

  const doneBefore = (await server.get(`/v1/batches/${id}`, { apikey: rotated.secret })).body.done;
  await waitForBatch(server.url, rotated.secret, id, { until: (p) => p.done >= doneBefore + 20 });
  const progress = await server.get(`/v1/batches/${id}`, { apikey: rotated.secret });
  assert.equal(progress.status, 200);
  assert.equal(progress.body.status, 'running');
  assert.equal(progress.body.cancelled, 0, 'rotation is not revocation: nothing was cancelled');
  assert.equal((await server.get(`/v1/batches/${id}/results?limit=1`, { apikey: rotated.secret })).status, 200);
  assert.equal((await server.get(`/v1/batches/${id}`, { apikey: secret })).status, 401);

  // A new key of the same name is another owner: it does not reach the batch.
  const namesake = (await server.runtime.keys.create({ name: 'rotating practice', env: 'sandbox' })).secret;
  assert.equal((await server.get(`/v1/batches/${id}`, { apikey: namesake })).status, 404);
  assert.equal((await server.delete(`/v1/batches/${id}`, { apikey: rotated.secret })).body.status, 'cancelled');
});

/**
 * What one key may make of monitors (issue 23, finding 2): bulk uploads a minute
 * (COVERAGE_MONITOR_BULK_PER_MINUTE), and monitors in all (COVERAGE_MONITOR_MAX_PER_KEY), which
 * requests sent at once cannot pass together, and which refuses a key at its limit before its upload
 * is read.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { needsPostgres, postgresStore, sqliteStore, type TestStore } from '../support/stores.ts';

const MAX = 5;
const PER_MINUTE = 3;
let server: TestServer;
before(async () => {
  server = await startTestServer({ env: { COVERAGE_MONITOR_MAX_PER_KEY: String(MAX), COVERAGE_MONITOR_BULK_PER_MINUTE: String(PER_MINUTE) } });
});
after(() => server.close());

const keyOf = async (on: TestServer, name: string) => ({ apikey: (await on.runtime.keys.create({ name, env: 'sandbox' })).secret });
const newKey = (name: string) => keyOf(server, name);

/** A monitor of its own patient (monitors of the same request are not merged in JSON). */
const monitor = (n: number) => ({
  member_id: `${10010 + n}MHNA`,
  member_first_name: 'Avery',
  member_last_name: 'Walsh',
  member_dob: '1988-03-14',
  payer_id: 'SBX-EVERGREEN',
  provider_npi: '1234567893',
  provider_session_cost: '15000',
  schedule: { every_days: 7 },
});

test(`a key may make ${PER_MINUTE} bulk uploads a minute, refused ones included; another key keeps its own`, async () => {
  const key = await newKey('bulk rate');
  for (let i = 0; i < PER_MINUTE; i++) {
    const res = await server.post('/v1/monitors/bulk', 'member_id\n', { ...key, 'content-type': 'text/csv' });
    assert.equal(res.status, 400, JSON.stringify(res.body));
  }
  const refused = await server.post('/v1/monitors/bulk', { monitors: [monitor(0)] }, key);
  assert.equal(refused.status, 429, JSON.stringify(refused.body));
  assert.equal(refused.body.error_code, 'TOO_MANY_REQUESTS');
  assert.match(refused.body.message, new RegExp(`At most ${PER_MINUTE} bulk monitor uploads a minute`));
  assert.ok(Number(refused.headers.get('retry-after')) > 0);
  assert.equal((await server.get('/v1/monitors', key)).body.monitors.length, 0);

  const other = await server.post('/v1/monitors/bulk', { monitors: [monitor(0)] }, await newKey('another practice'));
  assert.equal(other.status, 201, JSON.stringify(other.body));
});

test('a key at its limit is refused before its upload is read: the answer is the limit, not the rows', async () => {
  const key = await newKey('at the limit');
  const full = await server.post('/v1/monitors/bulk', { monitors: Array.from({ length: MAX }, (_, n) => monitor(n)) }, key);
  assert.equal(full.status, 201, JSON.stringify(full.body));
  // Rows that would each be an error, were they read.
  const upload = `member_id,member_dob,appointment_date\n${'!,!,!\n'.repeat(1_000)}`;
  const res = await server.post('/v1/monitors/bulk', upload, { ...key, 'content-type': 'text/csv' });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors, undefined, 'no row was read');
  assert.equal(res.body.message, `This key has ${MAX} monitors, the most it may have (${MAX}); delete monitors it no longer needs first`);
});

for (const [name, open, skip] of [
  ['SQLite', sqliteStore, false],
  ['PostgreSQL', postgresStore, needsPostgres()],
] as const) {
  describe(`requests sent at once, on ${name}`, { skip }, () => {
    const raced = {} as { server: TestServer; store: TestStore; newKey: (name: string) => Promise<{ apikey: string }> };
    before(async () => {
      raced.store = await open();
      raced.server = await startTestServer({
        env: { ...raced.store.env, COVERAGE_MONITOR_MAX_PER_KEY: String(MAX), COVERAGE_MONITOR_BULK_PER_MINUTE: '1000' },
      });
      raced.newKey = (name) => keyOf(raced.server, name);
    });
    after(async () => {
      await raced.server.close();
      await raced.store.cleanup();
    });

    test(`bulk uploads sent at once cannot together pass the ${MAX} monitors a key may have`, async () => {
      const key = await raced.newKey('bulk race');
      // Three uploads of two: each fits alone, any two together fit, all three do not.
      const answers = await Promise.all([0, 2, 4].map((n) => raced.server.post('/v1/monitors/bulk', { monitors: [monitor(n), monitor(n + 1)] }, key)));
      const made = answers.filter((a) => a.status === 201);
      assert.equal(made.length, 2, JSON.stringify(answers.map((a) => [a.status, a.body.message])));
      const refused = answers.find((a) => a.status !== 201)!;
      assert.equal(refused.status, 400);
      assert.match(refused.body.message, new RegExp(`This key has 4 monitors and may have ${MAX}; these 2 would pass that`));
      assert.equal((await raced.server.get('/v1/monitors', key)).body.monitors.length, 4);
    });

    test('single creations sent at once stop at the limit too', async () => {
      const key = await raced.newKey('single race');
      const answers = await Promise.all(Array.from({ length: MAX + 3 }, (_, n) => raced.server.post('/v1/monitors', monitor(n), key)));
      assert.equal(answers.filter((a) => a.status === 201).length, MAX);
      assert.equal(answers.filter((a) => a.status === 400).length, 3);
      assert.equal((await raced.server.get('/v1/monitors', key)).body.monitors.length, MAX);
    });
  });
}

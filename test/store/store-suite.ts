/** The store's assertions, written once and run on every dialect (store.test.ts). */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sql } from 'kysely';
import { AuditWriter, type AuditEvent } from '../../src/store/audit.ts';
import { KeyStore } from '../../src/store/keys.ts';
import { MIGRATIONS } from '../../src/store/migrations.ts';
import { auditHmacKey, memberHasher } from '../../src/store/member-hash.ts';
import { settingOrCreate } from '../../src/store/settings.ts';
import { usageCounts } from '../../src/store/usage.ts';
import { eventually } from '../helpers/eventually.ts';
import type { TestStore } from '../support/stores.ts';

function event(overrides: Partial<AuditEvent> = {}): AuditEvent {
  return {
    request_id: crypto.randomUUID(),
    at: '2025-03-01T12:00:00.000Z',
    key_id: 'key_a',
    endpoint: 'estimate',
    payer_id: 'SBX-AETNA',
    status: 200,
    error_code: null,
    latency_ms: 12,
    member_hash: 'ab'.repeat(32),
    user_id: null,
    route: null,
    control_number: null,
    trace_number: null,
    ...overrides,
  };
}

export function storeSuite(newStore: () => Promise<TestStore>): void {
  const stores: TestStore[] = [];
  const fresh = async () => {
    const store = await newStore();
    stores.push(store);
    return store;
  };
  after(async () => {
    await Promise.all(stores.map((s) => s.cleanup()));
  });

  test('migrations run at open, once, and a second instance finds them done', async () => {
    const store = await fresh();
    const [a, b] = [await store.open(), await store.open()];
    const applied = await sql<{ name: string }>`select name from coverage_migrations order by name`.execute(b.kysely);
    assert.deepEqual(
      applied.rows.map((r) => r.name),
      Object.keys(MIGRATIONS).sort(),
    );
    assert.ok(applied.rows.some((r) => r.name === '0002_audit_and_settings'));
    await a.ping();
    assert.deepEqual(await b.kysely.selectFrom('audit_events').selectAll().execute(), []);
  });

  test('keys: the secret is shown once, stored hashed, listed without secret or hash', async () => {
    const db = await (await fresh()).open();
    const keys = new KeyStore(db);
    const { key, secret } = await keys.create({ name: 'acme', env: 'sandbox', rate_limit_per_minute: 120 });
    assert.match(secret, /^cov_test_[A-Za-z0-9_-]{32}$/);
    const row = await db.kysely.selectFrom('api_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    assert.notEqual(row.hash, secret);
    assert.ok(!JSON.stringify(row).includes(secret));
    assert.equal((await keys.verify(secret))?.id, key.id);
    assert.equal(await keys.verify(`${secret}x`), null);
    const listed = await keys.list();
    assert.deepEqual(
      listed.map((k) => [k.id, k.name, k.env, k.rate_limit_per_minute]),
      [[key.id, 'acme', 'sandbox', 120]],
    );
    assert.ok(!JSON.stringify(listed).includes(secret));
    assert.ok(!JSON.stringify(listed).includes(row.hash));
  });

  test('keys: last_used_at is kept when a key is used', async () => {
    const db = await (await fresh()).open();
    const keys = new KeyStore(db);
    const { key, secret } = await keys.create({ name: 'acme', env: 'production' });
    assert.equal((await keys.get(key.id))?.last_used_at, null);
    await keys.verify(secret);
    await eventually('last_used_at set', async () => (await keys.get(key.id))?.last_used_at !== null);
  });

  test('keys: a revoke on one instance reaches another that has the key cached', async () => {
    const store = await fresh();
    const here = new KeyStore(await store.open());
    const there = new KeyStore(await store.open());
    const { key, secret } = await here.create({ name: 'acme', env: 'sandbox' });
    assert.equal((await there.verify(secret))?.id, key.id);
    assert.equal(await here.revoke(key.id), true);
    assert.equal(await here.revoke(key.id), false, 'a second revoke changes nothing');
    assert.equal(await here.verify(secret), null);
    await eventually('the other instance refuses the revoked key', async () => (await there.verify(secret)) === null);
    assert.ok((await there.get(key.id))?.revoked_at);
  });

  test('keys: rotate issues a new secret with the same name, env and limit, and revokes the old', async () => {
    const db = await (await fresh()).open();
    const keys = new KeyStore(db);
    const old = await keys.create({ name: 'acme', env: 'production', rate_limit_per_minute: 10 });
    const rotated = await keys.rotate(old.key.id);
    assert.ok(rotated);
    assert.notEqual(rotated.key.id, old.key.id);
    assert.deepEqual([rotated.key.name, rotated.key.env, rotated.key.rate_limit_per_minute], ['acme', 'production', 10]);
    assert.equal((await keys.verify(rotated.secret))?.id, rotated.key.id);
    assert.equal(await keys.verify(old.secret), null);
    assert.equal(await keys.rotate(old.key.id), null, 'a revoked key cannot be rotated');
  });

  test('keys: ensure registers a known secret once, replaces it when its env changes, and never brings back a revoked one', async () => {
    const db = await (await fresh()).open();
    const keys = new KeyStore(db);
    const first = await keys.ensure('cov_test_dev-secret', 'dev', 'sandbox');
    assert.ok(first);
    assert.equal((await keys.ensure('cov_test_dev-secret', 'dev', 'sandbox'))?.id, first.id);
    const moved = await keys.ensure('cov_test_dev-secret', 'dev', 'production');
    assert.ok(moved);
    assert.notEqual(moved.id, first.id);
    assert.deepEqual(
      (await keys.list()).map((k) => k.env),
      ['production'],
    );
    await keys.revoke(moved.id);
    assert.equal(await keys.ensure('cov_test_dev-secret', 'dev', 'production'), null);
    assert.equal(await keys.verify('cov_test_dev-secret'), null);
  });

  test('audit: records are written in batches and close() writes the rest', async () => {
    const db = await (await fresh()).open();
    const writer = new AuditWriter(db, { batchSize: 10, flushIntervalMs: 60_000 });
    const events = Array.from({ length: 25 }, () => event());
    for (const e of events) writer.record(e);
    await writer.flush();
    await writer.close();
    const rows = await db.kysely.selectFrom('audit_events').selectAll().execute();
    assert.deepEqual(new Set(rows.map((r) => r.request_id)), new Set(events.map((e) => e.request_id)));
    const stored = rows.find((r) => r.request_id === events[0]!.request_id);
    assert.deepEqual({ ...stored, status: Number(stored?.status), latency_ms: Number(stored?.latency_ms) }, events[0]);
  });

  test('audit: a batch written twice (a retry after a lost commit) keeps one record each', async () => {
    const db = await (await fresh()).open();
    const again = event();
    const writer = new AuditWriter(db);
    writer.record(again);
    await writer.flush();
    writer.record(again);
    writer.record(event());
    await writer.close();
    assert.equal((await db.kysely.selectFrom('audit_events').select('request_id').execute()).length, 2);
  });

  test('audit: when the store fails, records stay queued and the failure is reported', async () => {
    const store = await fresh();
    const db = await store.open();
    const failures: number[] = [];
    const writer = new AuditWriter(db, { onError: (_err, info) => failures.push(info.queued) });
    await db.close();
    writer.record(event());
    writer.record(event());
    await writer.close();
    assert.equal(writer.queued, 2);
    assert.ok(failures.length >= 1);
    assert.equal(failures.at(-1), 2);
  });

  test('audit: write() resolves once the record is committed, records of one turn sharing it; false when the store fails', async () => {
    const store = await fresh();
    const db = await store.open();
    const writer = new AuditWriter(db, { flushIntervalMs: 60_000 });
    const events = Array.from({ length: 30 }, () => event());
    assert.deepEqual(await Promise.all(events.map((e) => writer.write(e))), Array(30).fill(true));
    assert.equal(writer.queued, 0);
    const rows = await db.kysely.selectFrom('audit_events').select('request_id').execute();
    assert.deepEqual(new Set(rows.map((r) => r.request_id)), new Set(events.map((e) => e.request_id)));
    await db.close();
    assert.equal(await writer.write(event()), false);
    assert.equal(writer.queued, 1, 'kept for retry');
    await writer.close();
  });

  test('usage: counts by key, endpoint and outcome, since a time and for one key', async () => {
    const db = await (await fresh()).open();
    const keys = new KeyStore(db);
    const acme = (await keys.create({ name: 'acme', env: 'sandbox' })).key.id;
    const beta = (await keys.create({ name: 'beta', env: 'sandbox' })).key.id;
    const writer = new AuditWriter(db);
    const early = '2025-01-01T00:00:00.000Z';
    for (let i = 0; i < 3; i++) writer.record(event({ key_id: acme }));
    writer.record(event({ key_id: acme, status: 404, error_code: 'MEMBER_NOT_FOUND' }));
    writer.record(event({ key_id: acme, endpoint: 'scan', at: early }));
    writer.record(event({ key_id: beta, status: 429, error_code: 'TOO_MANY_REQUESTS', payer_id: null, member_hash: null }));
    await writer.close();

    const all = await usageCounts(db);
    const counts = (key: string) => all.filter((r) => r.key_id === key).map((r) => [r.key_name, r.endpoint, r.status, r.outcome, r.count]);
    assert.equal(all.length, 4);
    assert.deepEqual(counts(acme), [
      ['acme', 'estimate', 200, 'OK', 3],
      ['acme', 'estimate', 404, 'MEMBER_NOT_FOUND', 1],
      ['acme', 'scan', 200, 'OK', 1],
    ]);
    assert.deepEqual(counts(beta), [['beta', 'estimate', 429, 'TOO_MANY_REQUESTS', 1]]);
    const since = await usageCounts(db, { since: '2025-02-01T00:00:00.000Z', keyId: acme });
    assert.deepEqual(
      since.map((r) => [r.endpoint, r.outcome, r.count]),
      [
        ['estimate', 'OK', 3],
        ['estimate', 'MEMBER_NOT_FOUND', 1],
      ],
    );
  });

  test('member hash: one audit key per deployment, kept across restarts, unless COVERAGE_AUDIT_KEY is set', async () => {
    const store = await fresh();
    const [a, b] = [await store.open(), await store.open()];
    const [ka, kb] = await Promise.all([auditHmacKey(a, undefined), auditHmacKey(b, undefined)]);
    assert.equal(ka, kb, 'two instances starting together agree on one key');
    assert.ok(ka.length >= 40);
    assert.equal(await auditHmacKey(await store.open(), undefined), ka);
    assert.equal(await auditHmacKey(a, 'from-the-environment'), 'from-the-environment');
    assert.equal(await settingOrCreate(b, 'other', () => 'x'), 'x');
    assert.equal(await settingOrCreate(b, 'other', () => 'y'), 'x');
  });

  test('member hash: keyed, stable under case and spacing, different for different members', () => {
    const hash = memberHasher('k1');
    const avery = { member_id: '10010MHNA', first_name: 'Avery', last_name: 'Walsh', dob: '1988-03-14' };
    const h = hash(avery);
    assert.match(h, /^[0-9a-f]{64}$/);
    assert.equal(hash({ member_id: '10010mhna', first_name: ' AVERY ', last_name: 'walsh', dob: '1988-03-14' }), h);
    assert.notEqual(hash({ ...avery, dob: '1988-03-15' }), h);
    assert.notEqual(hash({ ...avery, member_id: null }), h);
    assert.notEqual(memberHasher('k2')(avery), h, 'another deployment key gives another hash');
  });
}

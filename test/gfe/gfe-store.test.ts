/** The Good Faith Estimate store on SQLite, and on PostgreSQL when DATABASE_URL is set: versions, sealing, fee schedules, per key. */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { DataKey } from '../../src/store/data-key.ts';
import { GfeStore, type GfeInsert } from '../../src/store/good-faith-estimates.ts';
import { SealedText } from '../../src/store/sealed-text.ts';
import { needsPostgres, postgresStore, sqliteStore, type TestStore } from '../support/stores.ts';

const row = (id: string, version: number, key = 'key_a'): GfeInsert<{ client: string }> => ({
  id,
  version,
  key_id: key,
  client_hash: 'ab'.repeat(32),
  status: 'draft',
  service_date: '2026-07-06',
  due_date: '2026-06-18',
  total_cents: 1000 * version,
  created_at: `2026-06-15T12:00:0${version}.000Z`,
  given_at: null,
  payload: { client: 'Avery Walsh' },
});

function suite(newStore: () => Promise<TestStore>) {
  const stores: TestStore[] = [];
  after(() => Promise.all(stores.map((s) => s.cleanup())));
  const open = async () => {
    const s = await newStore();
    stores.push(s);
    return s.open();
  };

  test('versions: a new one supersedes the others in one step, a stale change is refused, every version stays readable', async () => {
    const db = await open();
    const store = new GfeStore(db, new SealedText(DataKey.fromBytes(Buffer.alloc(32, 7))));
    await store.create(row('gfe_1', 1));
    assert.equal(await store.addVersion(row('gfe_1', 2), 1), true);
    assert.equal(await store.addVersion(row('gfe_1', 3), 1), false, 'version 1 is no longer the latest');
    assert.deepEqual(
      (await store.versions('key_a', 'gfe_1')).map((v) => [v.version, v.status]),
      [
        [1, 'superseded'],
        [2, 'draft'],
      ],
    );
    assert.equal((await store.get('key_a', 'gfe_1'))!.version, 2);
    assert.deepEqual((await store.get('key_a', 'gfe_1', 1))!.payload, { client: 'Avery Walsh' });
    assert.equal(await store.get('key_b', 'gfe_1'), null, 'another key reads nothing');
    assert.deepEqual(
      (await store.current('key_a', 10)).map((r) => r.version),
      [2],
    );
    assert.equal(await store.markGiven('key_a', 'gfe_1', 2, '2026-06-16T00:00:00.000Z', { client: 'Avery Walsh' }), true);
    assert.equal(await store.markGiven('key_a', 'gfe_1', 2, '2026-06-17T00:00:00.000Z', { client: 'Avery Walsh' }), false, 'given once');
    const raw = await db.kysely.selectFrom('good_faith_estimates').select('payload').execute();
    for (const r of raw) assert.doesNotMatch(r.payload, /Avery/);
    // Sealed under another data key: the content reads as absent.
    assert.equal((await new GfeStore(db, new SealedText(DataKey.fromBytes(Buffer.alloc(32, 8)))).get('key_a', 'gfe_1'))!.payload, null);
  });

  test("fee schedules: an import replaces the key's schedule; a modifier has its own fee; other keys keep theirs", async () => {
    const store = new GfeStore(await open());
    await store.importFees('key_a', [{ code: '90837', modifier: null, charge_cents: 15000 }], 'now');
    await store.importFees('key_b', [{ code: '90837', modifier: null, charge_cents: 9900 }], 'now');
    await store.importFees(
      'key_a',
      [
        { code: '90837', modifier: null, charge_cents: 16000 },
        { code: '90837', modifier: '95', charge_cents: 15500 },
      ],
      'now',
    );
    const a = await store.fees('key_a');
    assert.deepEqual([a('90837', null), a('90837', '95'), a('90791', null)], [16000, 15500, null]);
    assert.equal((await store.fees('key_b'))('90837', null), 9900);
  });
}

describe('Good Faith Estimate store on SQLite', () => suite(sqliteStore));
describe('Good Faith Estimate store on PostgreSQL', { skip: needsPostgres() }, () => suite(postgresStore));

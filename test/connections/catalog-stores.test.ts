/** The payer catalog and provider stores on SQLite and, when DATABASE_URL is set, PostgreSQL. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { MIGRATIONS, migrateToLatest } from '../../src/store/migrations.ts';
import { CatalogConflictError, PayerCatalogStore, type CatalogRecord, type Eligibility } from '../../src/store/payer-catalog.ts';
import { ProviderStore } from '../../src/store/providers.ts';
import { onEachStore, type TestStore } from '../support/stores.ts';

const record = (payer_id: string, connection_payer_id: string | null, more: Partial<CatalogRecord['entry']> = {}): CatalogRecord => ({
  entry: { payer_id, name: payer_id, aliases: [], eligibility: 'supported', medicaid_state: null, ...more },
  connection_payer_id,
});
const eligible = (eligibility: Eligibility) => ({ eligibility });

/** The store as it was before routes had eligibility: migrations up to 0009 only. */
async function schemaBeforeRouteEligibility(store: TestStore): Promise<Kysely<any>> {
  const db = store.env.DATABASE_URL
    ? new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: store.env.DATABASE_URL, max: 1 }) }) })
    : new Kysely<any>({ dialect: new SqliteDialect({ database: new SqliteDatabase(join(store.env.COVERAGE_DATA_DIR, 'coverage.sqlite')) }) });
  const upTo9 = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0010'));
  const schema = store.env.DATABASE_URL ? new URL(store.env.DATABASE_URL).searchParams.get('options')!.split('=')[1] : undefined;
  await migrateToLatest(db, upTo9, schema);
  return db;
}

onEachStore(
  (dialect) => `catalog stores on ${dialect}`,
  (make) => {
    const withCatalog = async (run: (catalog: PayerCatalogStore, store: TestStore) => Promise<void>) => {
      const store: TestStore = await make();
      try {
        await run(new PayerCatalogStore(await store.open()), store);
      } finally {
        await store.cleanup();
      }
    };

    test('upsert merges aliases and keeps one route per connection; providers replace by NPI', async () => {
      const store: TestStore = await make();
      try {
        const db = await store.open();
        const catalog = new PayerCatalogStore(db);
        const aetna = record('AETNA', '60054', { name: 'Aetna', aliases: ['60054'] });
        assert.deepEqual(await catalog.upsert([aetna], 'stedi'), { added: 1, updated: 0, merged: 0 });
        assert.deepEqual(await catalog.upsert([{ entry: { ...aetna.entry, aliases: ['AETNA INC'] }, connection_payer_id: 'AETNA' }], 'availity'), {
          added: 0,
          updated: 1,
          merged: 0,
        });
        assert.deepEqual(await catalog.upsert([{ entry: { ...aetna.entry, name: 'Aetna Inc' }, connection_payer_id: '60054X' }], 'stedi'), {
          added: 0,
          updated: 1,
          merged: 0,
        });
        assert.deepEqual(await catalog.list(), [
          {
            payer_id: 'AETNA',
            name: 'Aetna Inc',
            aliases: ['60054', 'AETNA INC'],
            eligibility: 'supported',
            medicaid_state: null,
            routes: { availity: { payer_id: 'AETNA', eligibility: 'supported' }, stedi: { payer_id: '60054X', eligibility: 'supported' } },
          },
        ]);
        const providers = new ProviderStore(db);
        const person = { npi: '1234567893', first_name: 'Karen', last_name: 'Horney', organization_name: null, taxonomy: null };
        assert.equal(await providers.put(person), true);
        assert.equal(await providers.put({ ...person, taxonomy: '103T00000X' }), false);
        assert.deepEqual(await providers.list(), [{ ...person, taxonomy: '103T00000X' }]);
        assert.equal(await providers.remove('1234567893'), true);
        assert.equal(await providers.remove('1234567893'), false);
      } finally {
        await store.cleanup();
      }
    });

    test("eligibility is each route's; the payer's is supported if any route is, else enrollment_required if any is", () =>
      withCatalog(async (catalog) => {
        const eligibilityOf = async () => {
          const [p] = await catalog.list();
          return [p!.eligibility, Object.fromEntries(Object.entries(p!.routes).map(([c, r]) => [c, r.eligibility]))];
        };
        await catalog.upsert([record('AETNA', '60054', eligible('supported'))], 'stedi');
        await catalog.upsert([record('AETNA', 'AETNA', eligible('not_supported'))], 'availity');
        assert.deepEqual(
          await eligibilityOf(),
          ['supported', { availity: 'not_supported', stedi: 'supported' }],
          "Availity's list does not hide Stedi's route",
        );
        await catalog.upsert([record('AETNA', '60054', eligible('enrollment_required'))], 'stedi');
        assert.deepEqual(await eligibilityOf(), ['enrollment_required', { availity: 'not_supported', stedi: 'enrollment_required' }]);
        await catalog.upsert([record('AETNA', '60054', eligible('not_supported'))], 'stedi');
        assert.deepEqual(await eligibilityOf(), ['not_supported', { availity: 'not_supported', stedi: 'not_supported' }]);
        await catalog.upsert([record('AETNA', 'AETNA', eligible('supported'))], 'availity');
        assert.deepEqual(await eligibilityOf(), ['supported', { availity: 'supported', stedi: 'not_supported' }]);
        await catalog.upsert([record('NOROUTE', null, eligible('enrollment_required'))], 'stedi');
        assert.equal((await catalog.list()).find((p) => p.payer_id === 'NOROUTE')!.eligibility, 'enrollment_required', 'no route: its own');
      }));

    test("a record whose ID is a payer's alias or a connection's payer ID (any case) updates that payer", () =>
      withCatalog(async (catalog) => {
        await catalog.upsert(
          [
            record('AETNA', 'AETNA', { name: 'Aetna', aliases: ['AETNA INC'], medicaid_state: null }),
            record('UHC', 'UHC', { name: 'UnitedHealthcare', medicaid_state: null }),
          ],
          'availity',
        );
        await catalog.upsert([record('UHC', '87726', { name: 'UnitedHealthcare' })], 'stedi');
        // Stedi's list keys Aetna by 60054 (with AETNA among its aliases), UHC by 87726, Florida Blue by a new ID.
        const stedi = [
          record('aetna inc', 'aetna inc', { name: 'Aetna (Stedi)', aliases: ['60054'], medicaid_state: 'CT' }),
          record('87726', '87726', { name: 'UHC (Stedi)', eligibility: 'enrollment_required' }),
          record('00590', '00590', { name: 'Florida Blue' }),
        ];
        assert.deepEqual(await catalog.upsert(stedi, 'stedi'), { added: 1, updated: 0, merged: 2 });
        const byId = new Map((await catalog.list()).map((p) => [p.payer_id, p]));
        assert.deepEqual([...byId.keys()], ['00590', 'AETNA', 'UHC'], 'no second Aetna or UHC');
        assert.deepEqual(byId.get('AETNA'), {
          payer_id: 'AETNA',
          name: 'Aetna',
          aliases: ['AETNA INC', '60054'],
          eligibility: 'supported',
          medicaid_state: 'CT',
          routes: { availity: { payer_id: 'AETNA', eligibility: 'supported' }, stedi: { payer_id: 'aetna inc', eligibility: 'supported' } },
        });
        assert.deepEqual(byId.get('UHC')!.routes, {
          availity: { payer_id: 'UHC', eligibility: 'supported' },
          stedi: { payer_id: '87726', eligibility: 'enrollment_required' },
        });
        assert.deepEqual(byId.get('UHC')!.aliases, ['87726']);
        // Importing the same list again finds the same payers.
        assert.deepEqual(await catalog.upsert(stedi, 'stedi'), { added: 0, updated: 1, merged: 2 });
      }));

    test('a record matching two payers, or two records matching one, refuses the list and nothing is written', () =>
      withCatalog(async (catalog) => {
        await catalog.upsert([record('AETNA', '60054', { aliases: ['SHARED'] }), record('UHC', '87726')], 'stedi');
        const before = await catalog.list();
        const refused = async (records: CatalogRecord[]) => {
          const err = await catalog.upsert(records, 'availity').then(
            () => assert.fail('accepted'),
            (e: unknown) => e,
          );
          assert.ok(err instanceof CatalogConflictError, String(err));
          assert.deepEqual(await catalog.list(), before);
          return err.problems;
        };
        assert.deepEqual(await refused([record('NEW1', 'NEW1'), record('shared', '87726')]), [
          "shared: matches catalog payers AETNA and UHC (by alias or a connection's payer ID)",
        ]);
        assert.deepEqual(await refused([record('60054', '60054'), record('FINE', 'FINE'), record('SHARED', 'SHARED')]), [
          '60054 and SHARED: both match catalog payer AETNA',
        ]);
      }));

    test('migration 0010 gives existing routes their payer-level eligibility', async () => {
      const store: TestStore = await make();
      try {
        const old = await schemaBeforeRouteEligibility(store);
        const payer = (payer_id: string, eligibility: Eligibility) => ({
          payer_id,
          name: payer_id,
          aliases: '[]',
          eligibility,
          medicaid_state: null,
          updated_at: 'x',
        });
        await old
          .insertInto('payer_catalog')
          .values([payer('GEHA', 'enrollment_required'), payer('NOELIG', 'not_supported')])
          .execute();
        await old
          .insertInto('payer_catalog_routes')
          .values([
            { payer_id: 'GEHA', connection: 'stedi', connection_payer_id: '44054' },
            { payer_id: 'GEHA', connection: 'availity', connection_payer_id: 'GEHA' },
            { payer_id: 'NOELIG', connection: 'stedi', connection_payer_id: 'EXNOELIG' },
          ])
          .execute();
        await old.destroy();
        const listed = await new PayerCatalogStore(await store.open()).list();
        assert.deepEqual(
          listed.map((p) => [p.payer_id, p.eligibility, p.routes]),
          [
            [
              'GEHA',
              'enrollment_required',
              { availity: { payer_id: 'GEHA', eligibility: 'enrollment_required' }, stedi: { payer_id: '44054', eligibility: 'enrollment_required' } },
            ],
            ['NOELIG', 'not_supported', { stedi: { payer_id: 'EXNOELIG', eligibility: 'not_supported' } }],
          ],
        );
      } finally {
        await store.cleanup();
      }
    });
  },
);

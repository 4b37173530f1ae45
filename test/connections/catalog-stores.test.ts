/** The payer catalog and provider stores on SQLite and, when DATABASE_URL is set, PostgreSQL. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PayerCatalogStore } from '../../src/store/payer-catalog.ts';
import { ProviderStore } from '../../src/store/providers.ts';
import { needsPostgres, postgresStore, sqliteStore, type TestStore } from '../support/stores.ts';

for (const [dialect, make, skip] of [
  ['SQLite', sqliteStore, false],
  ['PostgreSQL', postgresStore, needsPostgres],
] as const) {
  describe(`catalog stores on ${dialect}`, { skip }, () => {
    test('upsert merges aliases and keeps one route per connection; providers replace by NPI', async () => {
      const store: TestStore = await make();
      try {
        const db = await store.open();
        const catalog = new PayerCatalogStore(db);
        const aetna = { payer_id: 'AETNA', name: 'Aetna', aliases: ['60054'], eligibility: 'supported' as const, medicaid_state: null };
        assert.deepEqual(await catalog.upsert([aetna], 'stedi', new Map([['AETNA', '60054']])), { added: 1, updated: 0 });
        assert.deepEqual(await catalog.upsert([{ ...aetna, aliases: ['AETNA INC'] }], 'availity', new Map([['AETNA', 'AETNA']])), { added: 0, updated: 1 });
        assert.deepEqual(await catalog.upsert([{ ...aetna, name: 'Aetna Inc' }], 'stedi', new Map([['AETNA', '60054X']])), { added: 0, updated: 1 });
        assert.deepEqual(await catalog.list(), [
          {
            payer_id: 'AETNA',
            name: 'Aetna Inc',
            aliases: ['60054', 'AETNA INC'],
            eligibility: 'supported',
            medicaid_state: null,
            routes: { availity: 'AETNA', stedi: '60054X' },
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
  });
}

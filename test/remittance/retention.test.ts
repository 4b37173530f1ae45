/**
 * Remittance retention (docs/remittances.md 'Patient information'): remittances received more than
 * COVERAGE_REMITTANCE_RETENTION_DAYS ago are purged, with their lines and claims, by the sweep that
 * drops expired estimates. The clock is the test's.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadConfig } from '../../src/server/config.ts';
import { claimOf, PR, remittance835, serviceLine } from '../helpers/remittance-835.ts';
import { VALID_NPI } from '../helpers/requests.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const AVERY = { member_id: '10010MHNA', member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14' };
const DAY = 86_400_000;
const T0 = Date.parse('2026-12-01T09:00:00Z');
let now = T0;
let server: TestServer;
before(async () => {
  server = await startTestServer({ now: () => new Date(now), env: { COVERAGE_REMITTANCE_RETENTION_DAYS: '30' } });
});
after(() => server.close());

async function estimateAndRemit(icn: string) {
  const est = await server.post('/v1/estimate', { ...AVERY, provider_npi: VALID_NPI, provider_session_cost: 15000, procedure_code: '90837' });
  assert.equal(est.status, 200);
  const claim = { ...claimOf(`PCN-${icn}`, AVERY, [serviceLine('90837', 15000, 12000, [PR('3', 3000)], 15000)]), payer_claim_id: icn };
  const r = await server.post('/v1/remittances', remittance835(est.body.payer_id, [claim]), { 'content-type': 'application/edi-x12' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.equal(r.body.matched, 1);
  return r.body.id as string;
}

const rows = async (table: 'remittances' | 'remittance_lines' | 'remittance_claims', column: 'id' | 'remittance_id') =>
  (await server.runtime.db.kysely.selectFrom(table).select(column).execute()).map((r) => (r as Record<string, string>)[column]).sort();

test('the default is stated: 365 days, 1 to 3650', () => {
  assert.equal(loadConfig({}).remittanceRetentionDays, 365);
  assert.throws(() => loadConfig({ COVERAGE_REMITTANCE_RETENTION_DAYS: '0' }));
});

test('a remittance older than the retention is purged with its lines and claims at the next sweep; a younger one stays', async () => {
  const old = await estimateAndRemit('ICN-OLD');
  now = T0 + 20 * DAY;
  const young = await estimateAndRemit('ICN-YOUNG');
  assert.deepEqual(await rows('remittances', 'id'), [old, young].sort());
  assert.equal((await server.get('/v1/accuracy')).body.payers[0].lines, 2);

  // 31 days after the first: the next estimate kept runs the sweep.
  now = T0 + 31 * DAY;
  assert.equal((await server.get(`/v1/remittances/${old}`)).status, 200, 'nothing is purged before the sweep');
  await server.post('/v1/estimate', { ...AVERY, provider_npi: VALID_NPI, provider_session_cost: 15000, procedure_code: '90837' });
  assert.equal((await server.get(`/v1/remittances/${old}`)).status, 404);
  assert.equal((await server.get(`/v1/remittances/${young}`)).status, 200);
  for (const table of ['remittance_lines', 'remittance_claims'] as const) assert.deepEqual(await rows(table, 'remittance_id'), [young], table);
  assert.equal((await server.get('/v1/accuracy')).body.payers[0].lines, 1);
});

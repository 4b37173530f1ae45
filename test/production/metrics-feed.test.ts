/** The payer connectors feed the breaker-state gauge (one per connection) and the coverage cache feeds the lookup counter, with nothing else calling them. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { vendorDirectory } from '../../src/payers/simulator/vendors/directory.ts';
import { StediSimulator } from '../../src/payers/simulator/vendors/stedi.ts';
import { serveDirectory } from '../connections/setup.ts';
import { VALID_NPI } from '../helpers/requests.ts';
import { TEST_TODAY } from '../helpers/server.ts';
import { startProduction, type ProductionSetup } from '../helpers/production.ts';
import { onDay } from '../helpers/clock.ts';

let prod: ProductionSetup;
before(async () => {
  prod = await startProduction({ payerIds: ['SBX-HARBOR'], overrides: { circuit_breaker: { consecutive_failures: 3, half_open_after_ms: 60_000 } } });
});
after(() => prod.close());

const member = (id: string) => ({
  member_id: id,
  member_first_name: 'Pat',
  member_last_name: 'Metric',
  member_dob: '1980-01-01',
  payer_id: 'SBX-HARBOR',
  provider_npi: VALID_NPI,
});

async function sample(name: string, labels: Record<string, string>): Promise<number | undefined> {
  const text = await prod.server.runtime.metrics.render();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : undefined;
}

test('cache lookups are counted by the cache: a repeat check is a hit, a new person a miss', async () => {
  const misses = (await sample('coverage_cache_lookups_total', { cache: 'coverage', result: 'miss' })) ?? 0;
  const hits = (await sample('coverage_cache_lookups_total', { cache: 'coverage', result: 'hit' })) ?? 0;
  assert.equal((await prod.server.post('/v1/estimate', member('61001MHNA'))).status, 200);
  assert.equal((await prod.server.post('/v1/estimate', member('61001MHNA'))).status, 200);
  assert.equal((await prod.server.post('/v1/estimate', member('61002MHNA'))).status, 200);
  assert.equal(await sample('coverage_cache_lookups_total', { cache: 'coverage', result: 'miss' }), misses + 2);
  assert.equal(await sample('coverage_cache_lookups_total', { cache: 'coverage', result: 'hit' }), hits + 1);
});

test('the breaker gauge follows the connector: closed at start, open after repeated failures', async () => {
  assert.equal(await sample('coverage_payer_breaker_state', { connection: 'SBX-HARBOR' }), 0);
  prod.sim.setFaults({ payers: { 'SBX-HARBOR': { fault: 'http_500' } } });
  for (let i = 0; i < 3; i++) assert.equal((await prod.server.post('/v1/estimate', member(`6201${i}MHNA`))).status, 502);
  assert.equal(await sample('coverage_payer_breaker_state', { connection: 'SBX-HARBOR' }), 2);
  prod.sim.setFaults({});
});

test('one breaker gauge per connection, not per payer: every payer routed through a clearinghouse shares its breaker', async () => {
  const sim = await StediSimulator.start({ clock: onDay(TEST_TODAY) });
  const directory = vendorDirectory([{ name: 'stedi', sim }]);
  assert.ok(directory.payers.length > 1);
  const server = await serveDirectory(directory);
  try {
    const lines = (await server.runtime.metrics.render()).split('\n').filter((l) => l.startsWith('coverage_payer_breaker_state{'));
    assert.deepEqual(lines, ['coverage_payer_breaker_state{connection="stedi"} 0']);
  } finally {
    await server.close();
    await sim.close();
  }
});

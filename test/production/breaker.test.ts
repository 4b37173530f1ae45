/** A payer's circuit breaker opens after repeated failures, answers at once while open, and recovers. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { VALID_NPI } from '../helpers/requests.ts';
import { ManualClock } from '../helpers/clock.ts';
import { startProduction, type ProductionSetup } from '../helpers/production.ts';

let prod: ProductionSetup;
const clock = new ManualClock();
before(async () => {
  prod = await startProduction({
    payerIds: ['SBX-HARBOR'],
    overrides: { circuit_breaker: { consecutive_failures: 3, half_open_after_ms: 300 } },
    payerClock: clock,
  });
});
after(() => prod.close());

let serial = 50000;
const ask = () =>
  prod.server.post('/v1/estimate', {
    member_id: `${++serial}MHNA`,
    member_first_name: 'Pat',
    member_last_name: 'Breaker',
    member_dob: '1980-01-01',
    payer_id: 'SBX-HARBOR',
    provider_npi: VALID_NPI,
  });

test('breaker: opens after 3 failures, fails fast without reaching the payer, recovers after half-open', { timeout: 10_000 }, async () => {
  prod.sim.setFaults({ payers: { 'SBX-HARBOR': { fault: 'http_500' } } });
  for (let i = 0; i < 3; i++) assert.equal((await ask()).status, 502);
  assert.equal(prod.sim.hits('SBX-HARBOR'), 3);

  const open = await ask();
  assert.equal(open.status, 502);
  assert.equal(open.body.error_code, 'PAYER_FAILURE');
  assert.equal(prod.sim.hits('SBX-HARBOR'), 3, 'the open breaker did not reach the simulator');

  prod.sim.setFaults({});
  clock.advance(299);
  assert.equal((await ask()).status, 502, 'still open 1 ms before its period ends');
  assert.equal(prod.sim.hits('SBX-HARBOR'), 3);
  clock.advance(1);
  const recovered = await ask();
  assert.equal(recovered.status, 200, JSON.stringify(recovered.body));
  assert.equal(prod.sim.hits('SBX-HARBOR'), 4);
  assert.equal((await ask()).status, 200);
});

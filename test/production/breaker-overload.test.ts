/**
 * Finding 6: inquiries that ran out of time waiting in our own queue (the bulkhead) counted as
 * payer failures and opened the breaker for a healthy payer. 25 concurrent checks to a payer that
 * answers in 1.7 s, with a 3 s deadline and 10 connections: the breaker stays closed, inquiries
 * that never left the queue answer 429 with Retry-After, and a payer that really hangs still opens it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VALID_NPI } from '../helpers/requests.ts';
import { startProduction, type ProductionSetup } from '../helpers/production.ts';

let serial = 61000;

function breaker(prod: ProductionSetup): string {
  let state = '';
  prod.network.connector('SBX-HARBOR')!.onBreakerState((s) => (state = s));
  return state;
}

const ask = (prod: ProductionSetup) =>
  prod.server.post('/v1/estimate', {
    member_id: `${++serial}MHNA`,
    member_first_name: 'Pat',
    member_last_name: 'Overload',
    member_dob: '1980-01-01',
    payer_id: 'SBX-HARBOR',
    provider_npi: VALID_NPI,
  });

test('a queue longer than the deadline does not open the breaker of a healthy payer', { timeout: 30_000 }, async () => {
  const prod = await startProduction({
    payerIds: ['SBX-HARBOR'],
    latencyMs: 1700,
    overrides: { max_concurrency: 10, circuit_breaker: { consecutive_failures: 5, half_open_after_ms: 60_000 } },
    env: { COVERAGE_PAYER_TIMEOUT_MS: '3000' },
  });
  try {
    const answers = await Promise.all(Array.from({ length: 25 }, () => ask(prod)));
    const statuses = answers.map((a) => a.status);
    assert.ok(
      statuses.every((s) => s === 200 || s === 429 || s === 502),
      statuses.join(','),
    );
    assert.ok(statuses.includes(200), 'the first wave is answered');
    for (const a of answers.filter((x) => x.status === 429)) {
      assert.equal(a.body.error_code, 'TOO_MANY_REQUESTS');
      assert.ok(Number(a.headers.get('retry-after')) > 0, 'a 429 says when to retry');
    }
    assert.equal(breaker(prod), 'closed', `statuses: ${statuses.join(',')}`);

    const hits = prod.sim.hits('SBX-HARBOR');
    const next = await ask(prod);
    assert.equal(next.status, 200, JSON.stringify(next.body));
    assert.ok(prod.sim.hits('SBX-HARBOR') > hits, 'the next check reaches the payer');
  } finally {
    await prod.close();
  }
});

test('a payer that really hangs still opens the breaker', { timeout: 30_000 }, async () => {
  const prod = await startProduction({
    payerIds: ['SBX-HARBOR'],
    faults: { payers: { 'SBX-HARBOR': { fault: 'timeout' } } },
    overrides: { max_concurrency: 10, circuit_breaker: { consecutive_failures: 5, half_open_after_ms: 60_000 } },
    env: { COVERAGE_PAYER_TIMEOUT_MS: '600' },
  });
  try {
    const answers = await Promise.all(Array.from({ length: 6 }, () => ask(prod)));
    assert.deepEqual(
      answers.map((a) => a.status),
      [502, 502, 502, 502, 502, 502],
    );
    assert.equal(breaker(prod), 'open');
    const hits = prod.sim.hits('SBX-HARBOR');
    const open = await ask(prod);
    assert.equal(open.status, 502);
    assert.equal(prod.sim.hits('SBX-HARBOR'), hits, 'the open breaker does not reach the payer');
  } finally {
    await prod.close();
  }
});

test('a scan giving up on a slow payer at its own deadline does not count against that payer', { timeout: 30_000 }, async () => {
  const prod = await startProduction({
    payerIds: ['SBX-EVERGREEN'],
    latencyMs: 1500,
    overrides: { circuit_breaker: { consecutive_failures: 3, half_open_after_ms: 60_000 } },
    env: { COVERAGE_PAYER_TIMEOUT_MS: '5000', COVERAGE_SCAN_TIMEOUT_MS: '300' },
  });
  try {
    for (let i = 0; i < 5; i++) {
      const res = await prod.server.post('/v1/scan', { member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14', zip: '10001' });
      assert.notEqual(res.status, 200, 'the scan ends before the payer answers');
    }
    let state = '';
    prod.network.connector('SBX-EVERGREEN')!.onBreakerState((s) => (state = s));
    assert.equal(state, 'closed');
  } finally {
    await prod.close();
  }
});

/** Every simulator fault mode ends with the documented status and error code, before its deadline. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FaultRule } from '../../src/payers/simulator/faults.ts';
import { VALID_NPI } from '../helpers/requests.ts';
import { startProduction, type ProductionSetup } from '../helpers/production.ts';

let prod: ProductionSetup;
before(async () => {
  // A breaker that does not trip here: this suite checks each fault on its own.
  prod = await startProduction({
    overrides: { circuit_breaker: { consecutive_failures: 1000, half_open_after_ms: 300 } },
    // The deadlines these faults are measured against.
    env: { COVERAGE_PAYER_TIMEOUT_MS: '600', COVERAGE_SCAN_TIMEOUT_MS: '900' },
  });
});
after(() => prod.close());

let serial = 30000;
/** A fresh generated member ID (docs/interface.md 7.4) per check, so neither the cache nor `times` carries over. */
const freshId = () => `${++serial}MHNA`;

async function estimateWith(payerId: string, rule: FaultRule | null) {
  const memberId = freshId();
  prod.sim.setFaults(rule ? { members: { [memberId]: rule } } : {});
  const before = prod.sim.hits(payerId);
  const res = await prod.server.post('/v1/estimate', {
    member_id: memberId,
    member_first_name: 'Pat',
    member_last_name: 'Fault',
    member_dob: '1980-01-01',
    payer_id: payerId,
    provider_npi: VALID_NPI,
    provider_session_cost: '15000',
  });
  return { ...res, hits: prod.sim.hits(payerId) - before };
}

const NO_HANG = { timeout: 5_000 };

for (const [payer, protocol] of [
  ['SBX-EVERGREEN', 'SOAP'],
  ['SBX-MCD-NY', 'MIME'],
] as const) {
  describe(`fault modes over CORE ${protocol}`, () => {
    test('no fault: 200', NO_HANG, async () => {
      const { status, hits } = await estimateWith(payer, null);
      assert.equal(status, 200);
      assert.equal(hits, 1);
    });

    test('latency under the deadline: 200', NO_HANG, async () => {
      assert.equal((await estimateWith(payer, { fault: 'latency', latency_ms: 100 })).status, 200);
    });

    test('latency past the deadline: 502 PAYER_FAILURE', NO_HANG, async () => {
      const { status, body } = await estimateWith(payer, { fault: 'latency', latency_ms: 3_000 });
      assert.equal(status, 502);
      assert.equal(body.error_code, 'PAYER_FAILURE');
    });

    test('timeout (never answers): 502 PAYER_FAILURE at the deadline', NO_HANG, async () => {
      const { status, body } = await estimateWith(payer, { fault: 'timeout' });
      assert.equal(status, 502);
      assert.equal(body.error_code, 'PAYER_FAILURE');
    });

    test('HTTP 500: 502 PAYER_FAILURE, not retried', NO_HANG, async () => {
      const { status, body, hits } = await estimateWith(payer, { fault: 'http_500' });
      assert.equal(status, 502);
      assert.equal(body.error_code, 'PAYER_FAILURE');
      assert.equal(hits, 1);
    });

    test('connection reset: retried with backoff, then 502 PAYER_FAILURE', NO_HANG, async () => {
      const { status, body, hits } = await estimateWith(payer, { fault: 'connection_reset' });
      assert.equal(status, 502);
      assert.equal(body.error_code, 'PAYER_FAILURE');
      assert.equal(hits, 3, 'one attempt and two retries');
    });

    test('one connection reset: the retry answers, 200', NO_HANG, async () => {
      const { status, hits } = await estimateWith(payer, { fault: 'connection_reset', times: 1 });
      assert.equal(status, 200);
      assert.equal(hits, 2);
    });

    test('AAA 42: retried, then 502 PAYER_FAILURE', NO_HANG, async () => {
      const { status, body, hits } = await estimateWith(payer, { fault: 'aaa_42' });
      assert.equal(status, 502);
      assert.equal(body.error_code, 'PAYER_FAILURE');
      assert.equal(hits, 3);
    });

    test('one AAA 42: the retry answers, 200', NO_HANG, async () => {
      const { status, hits } = await estimateWith(payer, { fault: 'aaa_42', times: 1 });
      assert.equal(status, 200);
      assert.equal(hits, 2);
    });

    for (const fault of ['malformed_x12', 'reject_999', 'soap_fault', 'wrong_payload_id'] as const) {
      test(`${fault}: 502 PAYER_FAILURE, not retried`, NO_HANG, async () => {
        const { status, body, hits } = await estimateWith(payer, { fault });
        assert.equal(status, 502, JSON.stringify(body));
        assert.equal(body.error_code, 'PAYER_FAILURE');
        assert.equal(hits, 1);
      });
    }
  });
}

describe('scan under faults', () => {
  test('a payer that never answers is reported failed; the match still comes back by the scan deadline', NO_HANG, async () => {
    prod.sim.setFaults({ payers: { 'SBX-HARBOR': { fault: 'timeout' }, 'SBX-BLUE': { fault: 'http_500' } } });
    const { status, body } = await prod.server.post('/v1/scan', {
      member_first_name: 'Avery',
      member_last_name: 'Walsh',
      member_dob: '1988-03-14',
      zip: '10001',
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.payer_id, 'SBX-EVERGREEN');
    assert.deepEqual(body.payers_failed.map((f: any) => f.payer_id).sort(), ['SBX-BLUE', 'SBX-HARBOR']);
    assert.ok(body.payers_failed.every((f: any) => f.error_code === 'PAYER_FAILURE'));
  });
});

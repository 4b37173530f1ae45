/** The four operations in production mode, over CAQH CORE to the payer simulator on loopback. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { requestFor, VALID_NPI } from '../helpers/requests.ts';
import { startProduction, type ProductionSetup } from '../helpers/production.ts';
import { sandboxMemberTable } from '../../src/sandbox/member-table.ts';
import type { OperationName } from '../../src/domain/schemas/requests.ts';

let prod: ProductionSetup;
before(async () => {
  prod = await startProduction();
});
after(() => prod.close());

const estimate = (member_id: string, first: string, last: string, dob: string, payer_id: string) =>
  prod.server.post('/v1/estimate', {
    member_id,
    member_first_name: first,
    member_last_name: last,
    member_dob: dob,
    payer_id,
    provider_npi: VALID_NPI,
    provider_session_cost: '15000',
  });

describe('production mode against the simulator', () => {
  test('GET /v1/payers lists the directory without endpoints or credentials', async () => {
    const { status, body } = await prod.server.get('/v1/payers');
    assert.equal(status, 200);
    assert.equal(body.mode, 'production');
    assert.equal(body.payers.length, prod.sim.payers().length);
    const evergreen = body.payers.find((p: any) => p.payer_id === 'SBX-EVERGREEN');
    assert.deepEqual(Object.keys(evergreen).sort(), ['carve_out_administrators', 'medicaid_state', 'name', 'payer_id', 'supports_search']);
    assert.ok(!JSON.stringify(body).includes('127.0.0.1'));
    assert.ok(!JSON.stringify(body).includes('COVERAGE_SIM'));
  });

  test('an unknown payer_id is 400 PAYER_NOT_SUPPORTED and a blank one is required', async () => {
    const unknown = await estimate('10010MHNA', 'Avery', 'Walsh', '1988-03-14', 'NOPE');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error_code, 'PAYER_NOT_SUPPORTED');
    const blank = await estimate('10010MHNA', 'Avery', 'Walsh', '1988-03-14', '');
    assert.equal(blank.status, 400);
  });

  test('estimate asks one payer; a repeat within the TTL is answered from the cache', async () => {
    const before = prod.sim.hits('SBX-EVERGREEN');
    const first = await estimate('10010MHNA', 'Avery', 'Walsh', '1988-03-14', 'SBX-EVERGREEN');
    assert.equal(first.status, 200);
    assert.equal(first.body.copayment, 3000);
    assert.equal(prod.sim.hits('SBX-EVERGREEN'), before + 1);
    const again = await estimate('10010MHNA', 'Avery', 'Walsh', '1988-03-14', 'SBX-EVERGREEN');
    assert.deepEqual(again.body.copayment, 3000);
    assert.equal(prod.sim.hits('SBX-EVERGREEN'), before + 1, 'the repeat did not reach the payer');
  });

  test('carve-out: a second 270 goes to the administrator and its benefits are merged', async () => {
    const before = prod.sim.hits('SBX-MINDFUL');
    const { status, body } = await estimate('10040MHCA', 'Maya', 'Goldberg', '1993-03-19', 'SBX-HARBOR');
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.mental_health_coverage, 'carved_out');
    assert.equal(body.third_party_payer.name, 'MINDFUL BEHAVIORAL HEALTH ADMINISTRATORS');
    assert.equal(prod.sim.hits('SBX-MINDFUL'), before + 1);
  });

  test('medicaid routes patient_state to that state program (over MIME)', async () => {
    const row = sandboxMemberTable().find((r) => r.expectations.medicaid?.status === 200)!;
    const state = row.patient_state ?? 'NY';
    const before = prod.sim.hits(`SBX-MCD-${state}`);
    const { status } = await prod.server.post('/v1/medicaid', requestFor('medicaid', row));
    assert.equal(status, 200);
    assert.equal(prod.sim.hits(`SBX-MCD-${state}`), before + 1);
  });

  test('scan fans out to every payer that answers searches and reports the best match', async () => {
    const searchable = prod.network.payers().filter((p) => p.supports_search);
    const before = searchable.map((p) => prod.sim.hits(p.payer_id));
    const { status, body } = await prod.server.post('/v1/scan', {
      member_first_name: 'Avery',
      member_last_name: 'Walsh',
      member_dob: '1988-03-14',
      zip: '10001',
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.payers_checked, searchable.length);
    assert.deepEqual(body.payers_failed, []);
    searchable.forEach((p, i) => assert.equal(prod.sim.hits(p.payer_id), before[i]! + 1, p.payer_id));
  });

  test('(last: fills the cache) every catalog member answers as in the sandbox, on every endpoint it serves', async () => {
    const rows = sandboxMemberTable().filter((r) => r.payer_id !== '');
    const mismatches: string[] = [];
    await Promise.all(
      rows.flatMap((row) =>
        (Object.entries(row.expectations) as [OperationName, { status: number; error_code: string | null }][]).map(async ([endpoint, expected]) => {
          const { status, body } = await prod.server.post(`/v1/${endpoint}`, requestFor(endpoint, row));
          const code = body.error_code ?? null;
          if (status !== expected.status || code !== expected.error_code) {
            mismatches.push(`${row.member_id} ${endpoint}: ${status} ${code}, expected ${expected.status} ${expected.error_code}`);
          }
        }),
      ),
    );
    assert.deepEqual(mismatches, []);
  });
});

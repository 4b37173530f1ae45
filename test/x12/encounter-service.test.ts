/**
 * The encounter's own service types (src/x12/encounter-service.ts, src/x12/benefits/procedure-service-types.json;
 * docs/estimates.md 1.1, "The encounter's service types"): a substance-use procedure (H0001, ...) is covered or
 * handed elsewhere by the status and contact rows naming substance abuse's types (AI/AJ/AK), while a psychotherapy
 * session beside the same rows is not. Properties over generated 271s, any order, beside other services' rows.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import TABLE from '../../src/x12/benefits/procedure-service-types.json' with { type: 'json' };
import type { EstimateRequest } from '../../src/domain/schemas/requests.ts';
import { withoutMedicalPrice } from '../../src/operations/carve-out.ts';
import { estimateBody } from '../../src/operations/estimate.ts';
import { normalize271 } from '../../src/x12/index.ts';
import { body271, interchange, shuffled } from './x12-fixtures.ts';

const C = 15000;
const DOS = '2025-03-03';
const SUBSTANCE_USE = Object.keys(TABLE.procedures);
const PSYCHOTHERAPY = ['90834', '90837', '90791', 'H0031', 'H0004'];

function answer(loops: string[][], procedure: string, inNetwork: boolean) {
  const encounter = { date_of_service: DOS, procedure_code: procedure, place_of_service: '11' };
  const r = normalize271(interchange('271', body271(['DTP*346*D8*20250101', ...loops.flat()])), { encounter, memberId: 'M100' });
  assert.ok(r.ok && r.value.kind === 'coverage');
  const request = {
    member_id: 'M100',
    member_first_name: 'JANE',
    member_last_name: 'DOE',
    member_dob: '1980-01-01',
    provider_session_cost: C,
    in_network: inNetwork,
    ...encounter,
  } as EstimateRequest;
  return estimateBody(withoutMedicalPrice(r.value.coverage), request, DOS, DOS);
}

const SUD_TYPES = ['AI', 'AJ', 'AK', 'AI^AJ^AK', 'AI^AJ^AK^CJ'];
const OTHERS: readonly string[][] = [['EB*1**35'], ['EB*6**82'], ['EB*1**AL'], ['EB*C*IND*30***29*0']];

const arb = fc.record({
  types: fc.constantFrom(...SUD_TYPES),
  net: fc.constantFrom('', 'Y', 'N'),
  copay: fc.integer({ min: 0, max: 50 }),
  others: fc.subarray([...OTHERS]),
  seed: fc.nat(),
});

const withNet = (row: string, net: string) => (net === '' ? row : `${row}${'*'.repeat(12 - (row.split('*').length - 1))}${net}`);

test("substance abuse's types inactive: a substance-use procedure is not covered in the networks they name; a psychotherapy session is priced", () => {
  fc.assert(
    fc.property(arb, fc.constantFrom(...SUBSTANCE_USE), fc.constantFrom(...PSYCHOTHERAPY), ({ types, net, copay, others, seed }, sud, therapy) => {
      const loops = [['EB*1**30'], [withNet(`EB*6**${types}`, net)], [`EB*B*IND*MH***27*${copay}`], ...others];
      const rows = shuffled(loops, seed);
      for (const inNetwork of [true, false]) {
        const closed = net === '' || (net === 'Y') === inNetwork;
        assert.equal(answer(rows, sud, inNetwork).body.member_obligation, closed ? C : copay * 100, `${sud} ${net} ${inNetwork}`);
        assert.equal(answer(rows, therapy, inNetwork).body.member_obligation, copay * 100, therapy);
      }
    }),
    { numRuns: 120, seed: 3834 },
  );
});

test('an administrator named for substance abuse only: a substance-use procedure is carved out (206); a psychotherapy session is priced', () => {
  fc.assert(
    fc.property(arb, fc.constantFrom(...SUBSTANCE_USE), fc.constantFrom(...PSYCHOTHERAPY), ({ types, copay, others, seed }, sud, therapy) => {
      const loops = [
        ['EB*1**30'],
        [`EB*U**${types}`, 'LS*2120', 'NM1*VN*2*RECOVERY VENDOR', 'PER*IC**TE*8005550100', 'LE*2120'],
        [`EB*B*IND*MH***27*${copay}`],
        ...others,
      ];
      const rows = shuffled(loops, seed);
      const carved = answer(rows, sud, true);
      assert.equal(carved.status, 206, sud);
      assert.equal(carved.body.member_obligation, null);
      assert.ok(carved.body.alerts.some((a) => a.code === 'CARVE_OUT_DETECTED'));
      const therapySession = answer(rows, therapy, true);
      assert.equal(therapySession.body.member_obligation, copay * 100, therapy);
    }),
    { numRuns: 120, seed: 3818 },
  );
});

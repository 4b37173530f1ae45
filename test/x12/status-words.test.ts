/**
 * An end stated in words on an active status row (docs/estimates.md 1.1, "An end stated in words";
 * src/x12/benefits/status-phrases.json; 271-review-11 28): words saying the coverage ended by the date of
 * service contradict the active EB01 and leave the status unknown (206), wherever the row stands; an end
 * after the date of service, a future end without a date, a negated end and a dependent's age limit change nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { estimate } from '../../src/domain/estimate/index.ts';
import { normalize271 } from '../../src/x12/index.ts';
import { endStatedBy } from '../../src/x12/benefits/phrases.ts';
import { body271, interchange, shuffled } from './x12-fixtures.ts';

const DOS = '2025-06-15';
const COSTS = ['EB*B*IND*MH***27*30*****Y', 'EB*C*IND*30***29*0*****Y', 'EB*G*IND*30***29*200000*****Y'];

function owes(rows: string[]) {
  const r = normalize271(interchange('271', body271(['DTP*346*D8*20250101', 'DTP*347*D8*20251231', ...rows])), {
    encounter: { date_of_service: DOS, procedure_code: '90837', place_of_service: '11' },
  });
  assert.ok(r.ok && r.value.kind === 'coverage');
  return estimate(r.value.coverage, { session_cost: 15000, in_network: true, date_of_service: DOS });
}

test('endStatedBy: an end by the date of service, not one after it, a negated one or an age limit', () => {
  const by: [string, boolean][] = [
    ['COVERAGE TERMINATED EFFECTIVE 06/01/2025', true],
    ['COVERAGE TERMINATED EFFECTIVE 6/15/2025', true],
    ['MEMBER DISENROLLED AS OF 2025-05-31', true],
    ['POLICY CANCELLED 20250430', true],
    ['COVERAGE TERMINATED', true],
    ['MEMBER IS NO LONGER ELIGIBLE', true],
    ['COVERAGE TERMINATES 12-15-2025', false],
    ['COVERAGE TERMINATED EFFECTIVE 07/01/2025', false],
    ['COVERAGE ENDS ON 20251231', false],
    ['COVERAGE ENDS AT THE END OF THE MONTH', false],
    ['DEPENDENT COVERAGE ENDS AT AGE 26', false],
    ['COVERAGE NOT TERMINATED', false],
    ['QUALIFIED HEALTH PLAN', false],
    ['COBRA CONTINUATION ELECTED', false],
  ];
  for (const [text, ended] of by) assert.equal(endStatedBy(text, DOS) !== null, ended, text);
});

test('an active plan row whose words end the coverage by the date of service is unknown, in any order among the rows', () => {
  fc.assert(
    fc.property(fc.integer({ min: -200, max: 200 }), fc.nat(), (days, seed) => {
      const day = new Date(Date.UTC(2025, 5, 15) + days * 86_400_000).toISOString().slice(0, 10);
      const [y, m, d] = day.split('-');
      const rows = shuffled([['EB*1**30', `MSG*COVERAGE TERMINATED EFFECTIVE ${m}/${d}/${y}`], ...COSTS.map((c) => [c])], seed).flat();
      const e = owes(rows);
      if (day <= DOS) {
        assert.equal(e.fields.member_obligation, null);
        assert.equal(e.partial, 'UNKNOWN_COSTSHARE');
      } else assert.equal(e.fields.member_obligation, 3000);
    }),
    { numRuns: 60, seed: 271_2811 },
  );
});

test('the same words on an inactive row, or on a row for other services, change nothing', () => {
  assert.equal(owes(['EB*1**30', 'EB*6**82', 'MSG*COVERAGE TERMINATED EFFECTIVE 01/31/2025', ...COSTS]).fields.member_obligation, 3000);
  assert.equal(owes(['EB*1**30', ...COSTS]).fields.member_obligation, 3000);
});

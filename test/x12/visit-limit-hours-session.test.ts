/**
 * A limit in hours with less left than the session may last (docs/estimates.md 1.1, "Visit limits"): the CPT time
 * rule times the psychotherapy codes (90832 16-37 minutes, 90834 38-52, 90837 53 or more: procedure-minutes.json);
 * with fewer minutes left than that, the limit cannot be said to cover the session and the 271 does not say how the
 * rest is priced: unknown (206 UNKNOWN_COSTSHARE), never the copay. Properties over generated 271s: the limit as EB09
 * or HSD, the rows in any order, beside rows for the other network (a used-up limit, a copay) and for the next plan year.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { estimate } from '../../src/domain/estimate/index.ts';
import type { Coverage } from '../../src/domain/coverage.ts';
import { normalize271 } from '../../src/x12/index.ts';
import { body271, interchange, shuffled } from './x12-fixtures.ts';

const C = 15000;
const DOS = '2025-03-03';
/** The longest session each code may bill by the CPT time rule; 90837 has no upper bound: its least, 53. */
const NEED: Readonly<Record<string, number>> = { '90832': 37, '90834': 52, '90837': 53 };

function coverageFor(loops: string[][], procedure: string): Coverage {
  const r = normalize271(interchange('271', body271(['DTP*346*D8*20250101', 'EB*1**30', ...loops.flat()])), {
    encounter: { date_of_service: DOS, procedure_code: procedure, place_of_service: '11' },
  });
  assert.ok(r.ok && r.value.kind === 'coverage');
  return r.value.coverage;
}

const hoursLimit = (left: string, hsd: boolean): string[][] =>
  hsd
    ? [
        ['EB*F*IND*MH*********Y', 'HSD*HS*20***23'],
        ['EB*F*IND*MH*********Y', `HSD*HS*${left}***29`],
      ]
    : [['EB*F*IND*MH***23***HS*20**Y'], [`EB*F*IND*MH***29***HS*${left}**Y`]];

const BESIDE: readonly string[][] = [
  ['EB*F*IND*MH***29***VS*0**N'],
  ['EB*B*IND*MH***27*60*****N'],
  ['EB*F*IND*MH***29***HS*0**N'],
  ['EB*B*IND*MH***27*90*****Y', 'DTP*348*D8*20260101'],
];

const arb = fc.record({
  procedure: fc.constantFrom('90832', '90834', '90837'),
  /** Quarter hours left, 1 to 8 (15 minutes to 2 hours). */
  quarters: fc.integer({ min: 1, max: 8 }),
  hsd: fc.boolean(),
  beside: fc.subarray([...BESIDE]),
  seed: fc.nat(),
});

test('a limit in hours with fewer minutes left than the session may last leaves the price unknown; enough left, the copay', () => {
  fc.assert(
    fc.property(arb, ({ procedure, quarters, hsd, beside, seed }) => {
      const left = quarters / 4;
      const loops = [['EB*B*IND*MH***27*30*****Y'], ...hoursLimit(String(left), hsd), ...beside];
      const e = estimate(coverageFor(shuffled(loops, seed), procedure), { session_cost: C, in_network: true, date_of_service: DOS });
      const short = left * 60 < NEED[procedure]!;
      assert.equal(e.partial, short ? 'UNKNOWN_COSTSHARE' : null, `${left} h left, ${procedure}`);
      assert.equal(e.fields.member_obligation, short ? null : 3000);
    }),
    { numRuns: 200 },
  );
});

test('none left is the limit used up whatever the procedure; a procedure the table does not time keeps the copay', () => {
  for (const hsd of [false, true]) {
    for (const procedure of ['90832', '90837', '90791']) {
      const e = estimate(coverageFor([['EB*B*IND*MH***27*30*****Y'], ...hoursLimit('0', hsd)], procedure), {
        session_cost: C,
        in_network: true,
        date_of_service: DOS,
      });
      assert.equal(e.fields.member_obligation, C, `${procedure}: used up`);
    }
    const untimed = estimate(coverageFor([['EB*B*IND*MH***27*30*****Y'], ...hoursLimit('0.25', hsd)], '90791'), {
      session_cost: C,
      in_network: true,
      date_of_service: DOS,
    });
    assert.equal(untimed.fields.member_obligation, 3000);
  }
});

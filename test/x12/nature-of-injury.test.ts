/**
 * A row limited to a nature of injury (2115C III*NI or III*GR; src/x12/code-tables/iii.json `natureOfInjury`;
 * docs/estimates.md 1.1; 271-review-10 16) is care for that injury only: a session request names no injury, so the
 * row never prices it, in any order beside the session's own rows, whatever its figure.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { estimate } from '../../src/domain/estimate/index.ts';
import { normalize271 } from '../../src/x12/index.ts';
import { body271, interchange, shuffled } from './x12-fixtures.ts';

const DOS = '2025-06-15';

function owes(rows: string[]): number | null {
  const r = normalize271(interchange('271', body271(['DTP*346*D8*20250101', 'DTP*347*D8*20251231', 'EB*1**30', ...rows])), {
    encounter: { date_of_service: DOS, procedure_code: '90837', place_of_service: '11' },
  });
  assert.ok(r.ok && r.value.kind === 'coverage');
  return estimate(r.value.coverage, { session_cost: 15000, in_network: true, date_of_service: DOS }).fields.member_obligation;
}

test('a copay for one nature of injury never prices a session, beside its own copay in any order', () => {
  fc.assert(
    fc.property(fc.constantFrom('NI', 'GR'), fc.integer({ min: 0, max: 99 }), fc.nat(), (qualifier, copay, seed) => {
      const rows = shuffled([['EB*B*IND*MH***27*30*****Y'], [`EB*B*IND*MH***27*${copay}*****Y`, `III*${qualifier}*52`], ['EB*C*IND*30***29*0*****Y']], seed);
      assert.equal(owes(rows.flat()), 3000);
    }),
    { numRuns: 40, seed: 271_1016 },
  );
});

test('with no other copay, the injury-limited row prices nothing: the session falls back as without it', () => {
  assert.equal(owes(['EB*B*IND*MH***27*0*****Y', 'III*NI*52', 'EB*B*IND*30***27*45*****Y', 'EB*C*IND*30***29*0*****Y']), 4500);
});

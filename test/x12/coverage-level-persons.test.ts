/**
 * A copay or coinsurance stated for a class of persons (EB02 CHD children only, SPO spouse only, DEP dependents
 * only, EMP the employee only) is not the patient's when the patient is surely not one of them (docs/estimates.md
 * 1.1, "The benefit matrix"; TR3 005010X279A1 EB02): the subscriber's session is priced by the individual row beside
 * a children's row, in any order; a row for the patient's own class still competes (undecided: unknown).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Coverage } from '../../src/domain/coverage.ts';
import { estimate } from '../../src/domain/estimate/index.ts';
import { normalize271 } from '../../src/x12/index.ts';
import { body271, interchange } from './x12-fixtures.ts';

const C = 15000;
const DOS = '2025-03-03';

function read(subscriber: string[], dependent?: string[]): Coverage {
  const r = normalize271(interchange('271', body271(subscriber, dependent)), {
    encounter: { date_of_service: DOS, procedure_code: '90834', place_of_service: '11' },
  });
  assert.ok(r.ok && r.value.kind === 'coverage');
  return r.value.coverage;
}

function shuffled<T>(rows: readonly T[], seed: number): T[] {
  const out = rows.slice();
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const member = (c: Coverage) => estimate(c, { session_cost: C, in_network: true, date_of_service: DOS }).fields.member_obligation;

test("the subscriber's session: a copay for children, the spouse or dependents only is another person's, in any order", () => {
  fc.assert(
    fc.property(
      fc.record({
        level: fc.constantFrom('CHD', 'SPO', 'DEP'),
        other: fc.integer({ min: 0, max: 60 }),
        copay: fc.integer({ min: 0, max: 60 }),
        beside: fc.subarray(['EB*C*IND*30***29*0*****Y', 'EB*B*IND*98***27*45*****Y', 'EB*B*IND*MH***27*99*****N']),
        seed: fc.nat(),
      }),
      ({ level, other, copay, beside, seed }) => {
        const rows = [`EB*B*${level}*MH***27*${other}*****Y`, `EB*B*IND*MH***27*${copay}*****Y`, ...beside];
        assert.equal(member(read(['DMG*D8*19800101*F', 'EB*1**30', ...shuffled(rows, seed)])), copay * 100);
      },
    ),
    { numRuns: 120, seed: 2110 },
  );
});

test("a dependent's session: a copay for the employee only, or the spouse only for a child, is another person's", () => {
  for (const [level, relation] of [
    ['EMP', '19'],
    ['SPO', '19'],
    ['CHD', '01'],
    ['EMP', '01'],
  ] as const) {
    const dependent = ['DMG*D8*20150101*M', `INS*N*${relation}`, 'EB*1**30', `EB*B*${level}*MH***27*0*****Y`, 'EB*B*IND*MH***27*30*****Y'];
    assert.equal(member(read(['EB*1**30'], dependent)), 3000, `${level} for INS02 ${relation}`);
  }
});

test("a row for the patient's own class, or a relationship no table reads, still competes: different amounts are unknown", () => {
  for (const [level, relation] of [
    ['CHD', '19'],
    ['SPO', '01'],
    ['DEP', '19'],
    ['CHD', '53'],
  ] as const) {
    const dependent = ['DMG*D8*20150101*M', `INS*N*${relation}`, 'EB*1**30', `EB*B*${level}*MH***27*0*****Y`, 'EB*B*IND*MH***27*30*****Y'];
    assert.equal(member(read(['EB*1**30'], dependent)), null, `${level} for INS02 ${relation}`);
  }
});

/**
 * A row's MSG qualifying its own copay or coinsurance (src/x12/benefits/share-qualifiers.json; docs/estimates.md
 * 1.1, "Cost shares qualified in words"): not charged for a kind of visit, capped per visit, or qualified in words
 * no entry reads (unknown, never charged as if the words were absent). Properties over generated 271s: the rows
 * in any order, beside rows for another date, procedure or place, for every place of the visit.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import TABLE from '../../src/x12/benefits/share-qualifiers.json' with { type: 'json' };
import { estimate } from '../../src/domain/estimate/index.ts';
import type { Coverage } from '../../src/domain/coverage.ts';
import { shareQualifiers } from '../../src/x12/benefits/share-qualifiers.ts';
import { normalize271 } from '../../src/x12/index.ts';
import { body271, interchange, shuffled } from './x12-fixtures.ts';

const C = 15000;
const DOS = '2025-03-03';
const PLACES = ['11', '02', '10', '53'] as const;
const TELEHEALTH = new Set(['02', '10']);

function coverageOf(loops: string[][], place: string): Coverage {
  const r = normalize271(interchange('271', body271(['DTP*346*D8*20250101', 'EB*1**30', ...loops.flat()])), {
    encounter: { date_of_service: DOS, procedure_code: '90837', place_of_service: place },
  });
  assert.ok(r.ok && r.value.kind === 'coverage');
  return r.value.coverage;
}

const priced = (c: Coverage) => estimate(c, { session_cost: C, in_network: true, date_of_service: DOS });

/** Rows that never price this visit: another date, another procedure, an inpatient place (docs/estimates.md 1.1, filters). */
const BESIDE: readonly string[][] = [
  ['EB*B**MH***27*90*****Y', 'DTP*348*D8*20260101'],
  ['EB*B**MH***27*70*****Y*HC:90791'],
  ['EB*B**MH***27*55*****Y', 'III*ZZ*21'],
];

const arb = fc.record({
  copay: fc.integer({ min: 5, max: 80 }),
  percent: fc.integer({ min: 5, max: 50 }),
  place: fc.constantFrom(...PLACES),
  beside: fc.subarray([...BESIDE]),
  seed: fc.nat(),
});

test('every qualifier of the table reads its own example', () => {
  for (const q of TABLE.qualifiers) {
    const read = shareQualifiers(q.example);
    assert.ok(read.length > 0, q.id);
    assert.ok(
      read.every((r) => r.effect !== 'unknown'),
      `${q.id}: ${JSON.stringify(read)}`,
    );
  }
});

test('a copay waived for telehealth visits: none on a telehealth visit, the copay elsewhere, whatever else is sent', () => {
  fc.assert(
    fc.property(arb, ({ copay, place, beside, seed }) => {
      const rows = [[`EB*B*IND*MH***27*${copay}*****Y`, 'MSG*COPAY WAIVED FOR TELEHEALTH VISITS'], ...beside];
      const e = priced(coverageOf(shuffled(rows, seed), place));
      assert.equal(e.partial, null);
      assert.equal(e.fields.member_obligation, TELEHEALTH.has(place) ? 0 : copay * 100, `place ${place}`);
    }),
    { numRuns: 120, seed: 3815 },
  );
});

test('a coinsurance that does not apply to office visits: the copay alone at the office, both elsewhere', () => {
  fc.assert(
    fc.property(arb, ({ copay, percent, place, beside, seed }) => {
      const rows = [
        [`EB*A*IND*MH***27**.${String(percent).padStart(2, '0')}****Y`, 'MSG*COINSURANCE DOES NOT APPLY TO OFFICE VISITS'],
        [`EB*B*IND*MH***27*${copay}*****Y`],
        ...beside,
      ];
      const e = priced(coverageOf(shuffled(rows, seed), place));
      const cents = copay * 100;
      const both = cents + Math.floor(((C - cents) * percent + 50) / 100);
      assert.equal(e.partial, null);
      assert.equal(e.fields.member_obligation, place === '11' ? cents : both, `place ${place}`);
    }),
    { numRuns: 120, seed: 3816 },
  );
});

test('a coinsurance capped per visit: the member pays the smaller of the coinsurance and the cap', () => {
  fc.assert(
    fc.property(arb, fc.integer({ min: 10, max: 90 }), ({ percent, place, beside, seed }, cap) => {
      const rows = [[`EB*A*IND*MH***27**.${String(percent).padStart(2, '0')}****Y`, `MSG*MEMBER COINSURANCE NOT TO EXCEED $${cap} PER VISIT`], ...beside];
      const e = priced(coverageOf(shuffled(rows, seed), place));
      assert.equal(e.partial, null);
      assert.equal(e.fields.member_obligation, Math.min((C * percent) / 100, cap * 100));
    }),
    { numRuns: 120, seed: 3817 },
  );
});

const UNREAD = [
  'COPAY WAIVED FOR PREVENTIVE CARE',
  'COINSURANCE DOES NOT APPLY TO IN-NETWORK LABS',
  'COPAY CAPPED AT THREE VISITS',
  'PLAN WAIVES COPAY FOR SOME MEMBERS',
  'COINSURANCE UP TO 50 PERCENT',
  'COPAY EXCEPT WHEN ADMITTED',
];

test('words qualifying a cost share that no entry reads: unknown (206), never the cost share as if they were absent', () => {
  fc.assert(
    fc.property(arb, fc.constantFrom(...UNREAD), fc.boolean(), ({ copay, percent, place, beside, seed }, words, onCopay) => {
      const copayRow = [`EB*B*IND*MH***27*${copay}*****Y`];
      const coinsRow = [`EB*A*IND*MH***27**.${String(percent).padStart(2, '0')}****Y`];
      const rows = [onCopay ? [...copayRow, `MSG*${words}`] : copayRow, onCopay ? coinsRow : [...coinsRow, `MSG*${words}`], ...beside];
      const e = priced(coverageOf(shuffled(rows, seed), place));
      assert.equal(e.partial, 'UNKNOWN_COSTSHARE', words);
      assert.equal(e.fields.member_obligation, null);
    }),
    { numRuns: 120, seed: 3818 },
  );
});

test('negated and accumulator words say nothing of the visit', () => {
  for (const words of ['COPAY IS NOT WAIVED FOR TELEHEALTH VISITS', 'COPAY DOES NOT APPLY TO DEDUCTIBLE', 'COPAY APPLIES, DEDUCTIBLE WAIVED']) {
    for (const place of PLACES) {
      const e = priced(coverageOf([['EB*B*IND*MH***27*30*****Y', `MSG*${words}`]], place));
      assert.equal(e.fields.member_obligation, 3000, `${words} at ${place}`);
    }
  }
});

test('every condition of the table reads its own example as unknown', () => {
  for (const c of TABLE.conditions) {
    const read = shareQualifiers(c.example);
    assert.ok(read.length > 0, c.id);
    assert.ok(
      read.some((r) => r.effect === 'unknown'),
      `${c.id}: ${JSON.stringify(read)}`,
    );
  }
});

test('a cost share conditioned on who the patient is or on the OOP max met: unknown at every place, never charged as stated', () => {
  const conditions = fc.constantFrom(
    'COPAY APPLIES TO RECIPIENTS AGE 21 AND OLDER',
    'COPAYMENT ONLY FOR ADULTS',
    'COPAYS CONTINUE AFTER THE OUT OF POCKET MAXIMUM IS MET',
    'COPAY STILL APPLIES ONCE OOP IS REACHED',
  );
  fc.assert(
    fc.property(arb, conditions, ({ copay, place, beside, seed }, words) => {
      const rows = [[`EB*B*IND*MH***27*${copay}*****Y`, `MSG*${words}`], ...beside];
      const e = priced(coverageOf(shuffled(rows, seed), place));
      assert.equal(e.partial, 'UNKNOWN_COSTSHARE', `${words} at ${place}`);
      assert.equal(e.fields.member_obligation, null);
    }),
    { numRuns: 120 },
  );
});

test('words relating a copay to the OOP max met leave the OOP max unknown too: a met OOP max never caps the session at 0', () => {
  fc.assert(
    fc.property(arb, ({ copay, place, beside, seed }) => {
      const rows = [
        [
          `EB*B*IND*MH***27*${copay}*****Y`,
          'MSG*COPAYS DO NOT APPLY TO THE OUT OF POCKET MAXIMUM',
          'MSG*COPAYS CONTINUE AFTER THE OUT OF POCKET MAXIMUM IS MET',
        ],
        ['EB*G*IND*30***23*5000*****Y'],
        ['EB*G*IND*30***29*0*****Y'],
        ...beside,
      ];
      const e = priced(coverageOf(shuffled(rows, seed), place));
      assert.equal(e.partial, 'UNKNOWN_COSTSHARE');
      assert.equal(e.fields.member_obligation, null, `place ${place}`);
    }),
    { numRuns: 80 },
  );
});

test('271-review-9 07: a copay that "does not apply" to procedures named by code prices any other procedure, in any order', () => {
  const groups = [
    ['EB*B*IND*MH***27*30*****Y', 'MSG*THIS COPAY DOES NOT APPLY TO CRISIS PSYCHOTHERAPY 90839 OR 90840'],
    ['EB*A*IND*MH***27**.1****Y*HC:90839'],
    ['EB*C*IND*30***29*0*****Y'],
  ];
  const rows = (procedure: string, seed: number) => {
    const r = normalize271(interchange('271', body271(['DTP*346*D8*20260101', 'DTP*347*D8*20261231', 'EB*1**30', ...shuffled(groups, seed).flat()])), {
      encounter: { date_of_service: '2026-06-15', procedure_code: procedure, place_of_service: '11' },
    });
    assert.ok(r.ok && r.value.kind === 'coverage');
    return estimate(r.value.coverage, { session_cost: 15000, in_network: true, date_of_service: '2026-06-15' }).fields.member_obligation;
  };
  for (const seed of [0, 1, 2, 3, 4, 5]) {
    assert.equal(rows('90837', seed), 3000);
    assert.equal(rows('90834', seed), 3000);
    // The crisis code's own row (EB13) prices it; the add-on 90840 has none, and the copay is not its: unknown.
    assert.equal(rows('90839', seed), 1500);
    assert.equal(rows('90840', seed), null);
  }
  const read = shareQualifiers('COPAY DOES NOT APPLY TO 90839, 90840 AND H2011');
  assert.deepEqual(read.length === 1 && read[0]!.effect === 'none_for' ? read[0]!.procedures : null, ['90839', '90840', 'H2011']);
});

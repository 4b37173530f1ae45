/** Free-text MSG cues (src/x12/hints.ts, src/x12/benefits/phrases.ts): what a text says, in either direction, or nothing. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { saysCue, saysDeductible, saysVisitRange, visitSplitOf } from '../../src/x12/benefits/phrases.ts';
import { HINT, readHints } from '../../src/x12/hints.ts';

/** [MSG text, what it says of the deductible applying: true applies, false waived, null nothing]. */
const DEDUCTIBLE: readonly [string, boolean | null][] = [
  // waived
  ['DEDUCTIBLE WAIVED', false],
  ['Deductible is waived for in-network office visits', false],
  ['PLAN WAIVES THE DEDUCTIBLE', false],
  ['NO DEDUCTIBLE', false],
  ['IN NETWORK OFFICE VISIT - NO DEDUCTIBLE', false],
  ['NO DEDUCTIBLE APPLIES', false],
  ['NO DEDUCTIBLE REQUIRED', false],
  ['NO DEDUCTIBLE FOR OFFICE VISITS', false],
  ['OFFICE VISIT (NO DEDUCTIBLE)', false],
  ['NO DEDUCTIBLE, COPAY ONLY', false],
  ['COPAY WITHOUT DEDUCTIBLE', false],
  ['DEDUCTIBLE DOES NOT APPLY', false],
  ['DEDUCTIBLE DOESNT APPLY', false],
  ["DEDUCTIBLE DOESN'T APPLY TO THIS BENEFIT", false],
  ['DEDUCTIBLE WILL NOT APPLY', false],
  ["DEDUCTIBLE WON'T APPLY", false],
  ['DEDUCTIBLE NOT APPLICABLE', false],
  ['DEDUCTIBLE IS NOT APPLICABLE', false],
  ['DEDUCTIBLE N/A', false],
  ['NOT SUBJECT TO DEDUCTIBLE', false],
  ['COPAY NOT SUBJECT TO THE DEDUCTIBLE', false],
  ['COPAY APPLIES BEFORE DEDUCTIBLE', false],
  ['COINSURANCE APPLIES BEFORE THE DEDUCTIBLE', false],
  // applies
  ['DEDUCTIBLE APPLIES', true],
  ['PLAN DEDUCTIBLE APPLIES TO OFFICE VISITS', true],
  ['DEDUCTIBLE DOES APPLY', true],
  ['DEDUCTIBLE WILL APPLY', true],
  ['SUBJECT TO DEDUCTIBLE', true],
  ['COPAY IS SUBJECT TO THE DEDUCTIBLE', true],
  ['AFTER DEDUCTIBLE', true],
  ['COPAY APPLIES AFTER DEDUCTIBLE', true],
  ['COPAY APPLIES AFTER DEDUCTIBLE IS MET', true],
  ['20% COINSURANCE AFTER THE DEDUCTIBLE', true],
  ['DEDUCTIBLE MUST BE MET FIRST', true],
  ['COPAY ONCE DEDUCTIBLE IS MET', true],
  ['DEDUCTIBLE NOT WAIVED', true],
  // nothing said of its applying
  ['NO DEDUCTIBLE MET', null],
  ['NO DEDUCTIBLE MET TO DATE', null],
  ['NO DEDUCTIBLE INFORMATION AVAILABLE', null],
  ['DEDUCTIBLE REMAINING', null],
  ['FAMILY DEDUCTIBLE', null],
  ['DEDUCTIBLE: $500', null],
  ['DEDUCTIBLE MET', null],
  ['CALENDAR YEAR DEDUCTIBLE', null],
  ['COPAY DOES NOT APPLY TOWARD DEDUCTIBLE', null],
  ['OFFICE VISIT COPAY', null],
  ['PRIOR AUTHORIZATION REQUIRED', null],
  // contradicting statements say nothing
  ['COPAY APPLIES BEFORE DEDUCTIBLE, COINSURANCE AFTER DEDUCTIBLE', null],
];

for (const [text, says] of DEDUCTIBLE) {
  test(`deductible cue: "${text}" -> ${says === null ? 'nothing' : says ? 'applies' : 'waived'}`, () => {
    assert.equal(readHints(text).deductible, says);
  });
}

test('the canonical hint texts read as their fields', () => {
  assert.equal(readHints(HINT.deductibleWaived).deductible, false);
  assert.equal(readHints(HINT.deductibleApplies).deductible, true);
  assert.equal(readHints(HINT.marketplace).marketplace, true);
  assert.equal(readHints(HINT.hdhp).hdhp, true);
  assert.equal(readHints(HINT.bluecard).bluecard, true);
});

test('a deductible statement reads the same wherever it stands in the message', () => {
  const said = DEDUCTIBLE.filter(([, s]) => s !== null);
  fc.assert(
    fc.property(fc.constantFrom(...said), fc.constantFrom('', 'MENTAL HEALTH OFFICE VISIT - ', 'IN NETWORK: '), ([text, says], prefix) => {
      assert.equal(readHints(prefix + text).deductible, says, prefix + text);
    }),
  );
});

/** [plan name (EB05) or MSG text, whether it names an ACA marketplace plan]. */
const MARKETPLACE: readonly [string, boolean][] = [
  ['QUALIFIED HEALTH PLAN', true],
  ['HEALTH INSURANCE MARKETPLACE', true],
  ['EXCHANGE MEMBER - SILVER 70 HMO', true],
  ['Individual On-Exchange', true],
  ['ON EXCHANGE SILVER PPO', true],
  ['ACA EXCHANGE PLAN', true],
  ['INDIVIDUAL EXCHANGE GOLD', true],
  ['QHP SILVER', true],
  ['OFF-EXCHANGE SILVER PPO', false],
  ['INDIVIDUAL OFF EXCHANGE', false],
  ['OFF-EXCHANGE PLAN', false],
  ['NON-EXCHANGE PLAN', false],
  ['NOT A MARKETPLACE PLAN', false],
  ['OFF-MARKETPLACE', false],
  ['PRIVATE EXCHANGE PLAN', false],
  ['ELECTRONIC DATA EXCHANGE', false],
  ['CORPUS PPO', false],
];

for (const [text, says] of MARKETPLACE) {
  test(`marketplace cue: "${text}" -> ${says}`, () => {
    assert.equal(saysCue(text, 'marketplace'), says, 'plan name');
    assert.equal(readHints(text).marketplace, says, 'MSG');
  });
}

test('a cost share stated for some visits of the year only is told from a visit limit or a per-visit amount', () => {
  for (const text of [
    'COPAY APPLIES TO FIRST 5 OFFICE VISITS PER CALENDAR YEAR',
    'COINSURANCE APPLIES BEGINNING WITH 6TH OFFICE VISIT',
    'first three sessions',
    'AFTER 10 VISITS 20% COINSURANCE',
    'VISITS 1-5',
    'visits 6 through 20',
    'STARTING AT THE SEVENTH SESSION',
    '6TH VISIT AND AFTER',
  ])
    assert.equal(saysVisitRange(text), true, text);
  for (const text of [
    '20 VISITS PER CALENDAR YEAR',
    'COPAY PER VISIT',
    'VISIT LIMIT APPLIES',
    'PRIOR AUTHORIZATION REQUIRED AFTER INITIAL EVALUATION',
    'DEDUCTIBLE APPLIES',
    'FIRST VISIT OF THE DAY',
  ])
    assert.equal(saysVisitRange(text), false, text);
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 60 }), fc.string({ maxLength: 12 }), (n, pad) => {
      assert.equal(saysVisitRange(`${pad.replace(/[A-Za-z0-9]/g, ' ')} FIRST ${n} VISITS`), true);
    }),
  );
});

test('a deductible statement restricted to one network speaks for that network: the opposite of the other network, nothing of a row for both', () => {
  const cases: [string, 'in' | 'out' | null, boolean | null][] = [
    ['DEDUCTIBLE APPLIES TO OUT OF NETWORK ONLY', 'in', false],
    ['DEDUCTIBLE APPLIES TO OUT OF NETWORK ONLY', 'out', true],
    ['DEDUCTIBLE APPLIES TO OUT OF NETWORK ONLY', null, null],
    ['deductible applies only for in-network services', 'in', true],
    ['deductible applies only for in-network services', 'out', false],
    ['DEDUCTIBLE WAIVED FOR PARTICIPATING PROVIDERS ONLY', 'in', false],
    ['DEDUCTIBLE WAIVED FOR PARTICIPATING PROVIDERS ONLY', 'out', true],
    ['DEDUCTIBLE APPLIES', 'in', true],
    ['DEDUCTIBLE APPLIES', null, true],
    ['DEDUCTIBLE DOES NOT APPLY', 'out', false],
  ];
  for (const [text, network, says] of cases) assert.equal(saysDeductible(text, network), says, `${text} (${network})`);
  assert.equal(readHints('DEDUCTIBLE APPLIES TO OUT OF NETWORK ONLY', 'in').deductible, false);
});

test('where a cost share stated for some visits splits the year, and on which side it puts its own', () => {
  const cases: [string, { split: number; side: 'before' | 'after' } | null][] = [
    ['COPAY APPLIES TO FIRST 5 OFFICE VISITS PER CALENDAR YEAR', { split: 5, side: 'before' }],
    ['COPAY APPLIES TO THE FIRST 10 OUTPATIENT MENTAL HEALTH OFFICE VISITS. VISITS 11 AND LATER AT COINSURANCE', { split: 10, side: 'before' }],
    ['COINSURANCE BEGINNING WITH THE 11TH VISIT', { split: 10, side: 'after' }],
    ['AFTER 10 VISITS 20% COINSURANCE', { split: 10, side: 'after' }],
    ['6TH VISIT AND AFTER', { split: 5, side: 'after' }],
    ['first three sessions', { split: 3, side: 'before' }],
    ['FIRST 10 VISITS; VISITS 12 AND LATER', null],
    ['20 VISITS PER CALENDAR YEAR', null],
    ['DEDUCTIBLE APPLIES', null],
  ];
  for (const [text, split] of cases) assert.deepEqual(visitSplitOf(text), split, text);
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 99 }), (n) => {
      assert.deepEqual(visitSplitOf(`COPAY FOR THE FIRST ${n} VISITS`), { split: n, side: 'before' });
      assert.deepEqual(visitSplitOf(`COINSURANCE AFTER ${n} VISITS`), { split: n, side: 'after' });
    }),
  );
});

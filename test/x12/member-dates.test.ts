/**
 * The 2100C/2100D dates beside the plan and eligibility dates (src/x12/continuation.ts `narrowedEligibility`,
 * src/x12/benefits/closed-world.ts `unknownMemberDates`; docs/estimates.md 1.1, "Gates" and "Closed world"; TR3
 * 005010X279A1 2100C DTP): policy effective (539), policy expiration (540) and COBRA end (341) narrow the
 * eligibility (the later begin, the earlier end), so the session is priced only when the date of service lies
 * inside all of them; a premium paid-to end (343) is compared with the day the payer answered; a date of death
 * (442) counts in the patient's own loop only. Dates in any order.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { estimate } from '../../src/domain/estimate/index.ts';
import type { Coverage } from '../../src/domain/coverage.ts';
import { normalize271 } from '../../src/x12/index.ts';
import { body271, interchange, shuffled } from './x12-fixtures.ts';

const C = 15000;
/** body271's BHT is 2025-01-01: the day the payer answered. */
const ANSWERED = '2025-01-01';
const DOS = '2025-01-20';
const ROWS = ['EB*1**30', 'EB*B*IND*MH***27*40*****Y', 'EB*C*IND*30***29*0*****Y'];

const d8 = (iso: string) => iso.replaceAll('-', '');
const plusDays = (iso: string, n: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

function owes(subscriber: string[], dependent?: string[]): number | null {
  const r = normalize271(interchange('271', body271(subscriber, dependent)), {
    encounter: { date_of_service: DOS, procedure_code: '90837', place_of_service: '11' },
  });
  assert.ok(r.ok && r.value.kind === 'coverage');
  const c: Coverage = r.value.coverage;
  return estimate(c, { session_cost: C, in_network: true, date_of_service: DOS }).fields.member_obligation;
}

const offset = fc.option(fc.constantFrom(-40, -1, 0, 1, 40), { nil: null });

test('policy effective, policy expiration and COBRA end narrow the eligibility: priced inside all of them, the whole session outside', () => {
  fc.assert(
    fc.property(fc.record({ effective: offset, expiration: offset, cobraEnd: offset, seed: fc.nat() }), ({ effective, expiration, cobraEnd, seed }) => {
      const dtps = ['DTP*346*D8*20250101', 'DTP*347*D8*20251231'];
      if (effective !== null) dtps.push(`DTP*539*D8*${d8(plusDays(DOS, effective))}`);
      if (expiration !== null) dtps.push(`DTP*540*D8*${d8(plusDays(DOS, expiration))}`);
      if (cobraEnd !== null) dtps.push('DTP*340*D8*20240601', `DTP*341*D8*${d8(plusDays(DOS, cobraEnd))}`);
      const inForce = (effective === null || effective <= 0) && (expiration === null || expiration >= 0) && (cobraEnd === null || cobraEnd >= 0);
      assert.equal(owes([...shuffled(dtps, seed), ...ROWS]), inForce ? 4000 : C);
    }),
    { numRuns: 200, seed: 3853 },
  );
});

test('a premium paid-to end on or after the day the payer answered is current; before it, the share is unknown', () => {
  fc.assert(
    fc.property(fc.integer({ min: -20, max: 40 }), fc.nat(), (days, seed) => {
      const paidTo = plusDays(ANSWERED, days);
      const dtps = ['DTP*346*D8*20250101', 'DTP*347*D8*20251231', `DTP*342*D8*${d8(plusDays(paidTo, -30))}`, `DTP*343*D8*${d8(paidTo)}`];
      assert.equal(owes([...shuffled(dtps, seed), ...ROWS]), paidTo >= ANSWERED ? 4000 : null, paidTo);
    }),
    { numRuns: 100, seed: 3843 },
  );
});

test("a date of death counts in the patient's own loop only", () => {
  fc.assert(
    fc.property(fc.integer({ min: -60, max: -1 }), fc.boolean(), (days, own) => {
      const death = `DTP*442*D8*${d8(plusDays(DOS, days))}`;
      const subscriber = ['DTP*346*D8*20250101', ...(own ? [] : [death]), 'EB*6**30'];
      const dependent = ['DTP*346*D8*20250101', ...(own ? [death] : []), ...ROWS];
      assert.equal(owes(subscriber, dependent), own ? null : 4000);
    }),
    { numRuns: 60, seed: 3844 },
  );
});

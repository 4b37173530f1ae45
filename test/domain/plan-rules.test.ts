/** plan_status and plan-year reset rules with an injected `today` (docs/estimates.md). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Coverage, NetworkBenefits, NextPlanYear } from '../../src/domain/coverage.ts';
import { inForce, planStatus, resetRules } from '../../src/domain/plan-rules.ts';

const TODAY = '2025-12-10';

const inNetwork: NetworkBenefits = {
  copayment: 3000,
  coinsurance: 20,
  deductible_applies: true,
  deductible: { individual: { total: 150000, remaining: 50000 }, family: { total: 300000, remaining: 200000 } },
  oop_max: { individual: { total: 400000, remaining: 300000 }, family: { total: 800000, remaining: 700000 } },
  visit_limit: null,
};

function coverage(extra: Partial<Coverage> = {}): Coverage {
  const person = { first_name: 'Ana', last_name: 'Diaz', member_id: '100MHNA', gender: 'F' as const, dob: '1990-01-01', address: null };
  return {
    payer_id: 'P1',
    payer_name: 'Payer',
    plan_name: null,
    plan_type: 'PPO',
    insurance_type: 'commercial',
    group_name: null,
    group_id: null,
    plan_begin_date: '2025-01-01',
    plan_end_date: '2026-06-30',
    eligibility_end_date: null,
    coverage_status: 'active',
    mental_health_coverage: 'active',
    in_network: inNetwork,
    out_of_network: null,
    telehealth: null,
    pcp: null,
    third_party_payer: null,
    utilization_manager: null,
    additional_policies: [],
    is_marketplace: false,
    is_bluecard: false,
    is_hdhp: false,
    member: person,
    subscriber: person,
    relationship_to_subscriber: 'self',
    payer_corrected_demographics: false,
    next_plan_year: null,
    messages: [],
    ...extra,
  };
}

const sameNextYear = (changes: Partial<NonNullable<NextPlanYear['in_network']>> = {}, member_id = '100MHNA'): NextPlanYear => ({
  begin_date: '2026-01-01',
  member_id,
  in_network: { copayment: 3000, coinsurance: 20, deductible: 150000, oop_max: 400000, ...changes },
});

/** A plan whose year ends 2025-12-31 (21 days after TODAY), renewing the next day. */
const endingSoon = (next: NextPlanYear | null, extra: Partial<Coverage> = {}) => coverage({ plan_end_date: '2025-12-31', next_plan_year: next, ...extra });

test('plan_status INACTIVE', () => {
  assert.equal(planStatus(coverage({ coverage_status: 'inactive' }), TODAY), 'INACTIVE');
  assert.equal(planStatus(coverage({ plan_end_date: '2025-12-09' }), TODAY), 'INACTIVE', 'plan ended yesterday');
  assert.equal(planStatus(coverage({ eligibility_end_date: '2025-11-30' }), TODAY), 'INACTIVE', 'eligibility ended');
  assert.equal(planStatus(coverage({ plan_begin_date: '2025-12-11' }), TODAY), 'INACTIVE', 'plan begins tomorrow');
  assert.equal(
    planStatus(coverage({ coverage_status: 'active_pending_investigation', plan_end_date: '2025-01-31' }), TODAY),
    'INACTIVE',
    'ended beats pending',
  );
});

test('plan_status ACTIVE_AT_RISK', () => {
  assert.equal(planStatus(coverage({ coverage_status: 'active_pending_investigation' }), TODAY), 'ACTIVE_AT_RISK');
  assert.equal(planStatus(coverage({ eligibility_end_date: '2025-12-20' }), TODAY), 'ACTIVE_AT_RISK', 'eligibility ends in 10 days');
  assert.equal(planStatus(coverage({ eligibility_end_date: TODAY }), TODAY), 'ACTIVE_AT_RISK', 'eligibility ends today');
  assert.equal(planStatus(coverage({ eligibility_end_date: '2026-01-09' }), TODAY), 'ACTIVE_AT_RISK', 'eligibility ends in 30 days');
  assert.equal(
    planStatus(endingSoon(null, { eligibility_end_date: '2025-12-31' }), TODAY),
    'ACTIVE_AT_RISK',
    'eligibility ends with the plan year, no renewal reported',
  );
  assert.equal(
    planStatus(endingSoon({ ...sameNextYear(), begin_date: '2026-02-01' }, { eligibility_end_date: '2025-12-31' }), TODAY),
    'ACTIVE_AT_RISK',
    'next year leaves a gap',
  );
  assert.equal(planStatus(endingSoon(null), TODAY), 'ACTIVE', 'the plan year ending is a reset, not a risk');
  assert.equal(planStatus(coverage({ plan_end_date: TODAY }), TODAY), 'ACTIVE', 'plan year ends today: renewal is routine');
});

test('plan_status ACTIVE', () => {
  assert.equal(planStatus(coverage(), TODAY), 'ACTIVE');
  assert.equal(planStatus(coverage({ plan_begin_date: TODAY }), TODAY), 'ACTIVE', 'begins today');
  assert.equal(planStatus(coverage({ plan_end_date: '2026-01-10' }), TODAY), 'ACTIVE', 'plan ends in 31 days');
  assert.equal(planStatus(coverage({ plan_begin_date: null, plan_end_date: null }), TODAY), 'ACTIVE', 'no dates reported');
  assert.equal(planStatus(endingSoon(sameNextYear()), TODAY), 'ACTIVE', 'plan year ends but the next one is reported');
  assert.equal(planStatus(endingSoon(sameNextYear(), { eligibility_end_date: '2025-12-31' }), TODAY), 'ACTIVE', 'eligibility ends with the renewing year');
});

test("plan_status on a given day (an estimate's date of service) agrees with inForce, the gates' rule", () => {
  const starting = coverage({ plan_begin_date: '2025-12-15' });
  assert.equal(planStatus(starting, TODAY), 'INACTIVE', 'begins after today');
  assert.equal(planStatus(starting, '2025-12-15'), 'ACTIVE', 'a visit on the first day');
  assert.equal(planStatus(endingSoon(null), '2026-01-05'), 'INACTIVE', 'a visit after the plan year, no next year reported');
  assert.equal(planStatus(endingSoon(sameNextYear()), '2026-01-05'), 'ACTIVE', 'a visit in the next plan year the payer reports');
  assert.equal(planStatus(endingSoon({ ...sameNextYear(), begin_date: '2026-02-01' }), '2026-01-05'), 'INACTIVE', 'a visit in the gap before the next year');
  const day = fc.integer({ min: 0, max: 900 }).map((n) => new Date(Date.UTC(2025, 0, 1) + n * 86_400_000).toISOString().slice(0, 10));
  fc.assert(
    fc.property(day, day, day, fc.option(day), (begin, end, asOf, nextBegin) => {
      const c = coverage({
        plan_begin_date: begin,
        plan_end_date: end,
        next_plan_year: nextBegin === null ? null : { ...sameNextYear(), begin_date: nextBegin },
      });
      assert.equal(planStatus(c, asOf) === 'INACTIVE', !inForce(c, asOf));
    }),
  );
});

test("monthly Medicaid eligibility (ending on a month's last day) is at risk only within the next-visit window of 7 days", () => {
  const medicaid = (end: string) => coverage({ insurance_type: 'medicaid', eligibility_end_date: end });
  assert.equal(planStatus(medicaid('2025-12-31'), TODAY), 'ACTIVE', 'month end 21 days away: the monthly renewal');
  assert.equal(planStatus(medicaid('2025-12-31'), '2025-12-24'), 'ACTIVE_AT_RISK', 'month end 7 days away: before the next weekly visit');
  assert.equal(planStatus(medicaid('2025-12-20'), TODAY), 'ACTIVE_AT_RISK', 'not a month end: a termination, 30-day window');
  assert.equal(
    planStatus(coverage({ insurance_type: 'commercial', eligibility_end_date: '2025-12-31' }), TODAY),
    'ACTIVE_AT_RISK',
    'commercial: 30-day window',
  );
});

test('dates are checked, and the clock is never read', () => {
  assert.throws(() => planStatus(coverage(), '2025-13-01'), RangeError);
  assert.throws(() => resetRules(coverage(), '12/10/2025'), RangeError);
  assert.throws(() => planStatus(coverage({ plan_end_date: '2025-02-30' }), TODAY), RangeError);
  assert.equal(planStatus(coverage({ plan_end_date: '2030-06-30', eligibility_end_date: '2030-01-01' }), '2029-12-31'), 'ACTIVE_AT_RISK');
  assert.equal(planStatus(coverage({ plan_begin_date: '2019-01-01', plan_end_date: '2030-01-01' }), '2020-01-01'), 'ACTIVE');
});

test('reset not soon: NOT_DETECTED, even when next year is already reported', () => {
  const expected = { plan_reset_soon: false, reset_benefits_status: 'NOT_DETECTED', reset_benefits: null };
  assert.deepEqual(resetRules(coverage(), TODAY), expected);
  assert.deepEqual(resetRules(coverage({ plan_end_date: '2026-01-10' }), TODAY), expected, '31 days away');
  assert.deepEqual(
    resetRules(coverage({ plan_end_date: '2026-03-31', next_plan_year: { ...sameNextYear({ copayment: 1 }), begin_date: '2026-04-01' } }), TODAY),
    expected,
  );
  assert.deepEqual(resetRules(coverage({ plan_end_date: '2025-12-01' }), TODAY), expected, 'plan already ended');
});

test('reset soon, nothing known about next year: plan_reset_soon, NOT_DETECTED', () => {
  const expected = { plan_reset_soon: true, reset_benefits_status: 'NOT_DETECTED', reset_benefits: null };
  assert.deepEqual(resetRules(endingSoon(null), TODAY), expected);
  assert.deepEqual(resetRules(endingSoon({ begin_date: '2026-01-01', member_id: null, in_network: null }), TODAY), expected);
  assert.deepEqual(
    resetRules(
      endingSoon({ begin_date: '2026-01-01', member_id: null, in_network: { copayment: null, coinsurance: null, deductible: null, oop_max: null } }),
      TODAY,
    ),
    expected,
  );
});

test('reset soon, next year the same: DETECTED_NO_ACTION_REQUIRED', () => {
  const r = resetRules(endingSoon(sameNextYear({}, '100mhna ')), TODAY);
  assert.deepEqual(r, {
    plan_reset_soon: true,
    reset_benefits_status: 'DETECTED_NO_ACTION_REQUIRED',
    reset_benefits: { effective_date: '2026-01-01', changes: [], copayment: 3000, coinsurance: 20, deductible: 150000, oop_max: 400000, member_id: '100mhna ' },
  });
  assert.equal(
    resetRules(coverage({ plan_end_date: '2026-01-09', next_plan_year: { ...sameNextYear(), begin_date: '2026-01-10' } }), TODAY).plan_reset_soon,
    true,
    'plan ends in 30 days',
  );
  const onlyBeginDate = coverage({ plan_end_date: null, next_plan_year: { ...sameNextYear(), begin_date: '2025-12-15' } });
  assert.equal(resetRules(onlyBeginDate, TODAY).reset_benefits_status, 'DETECTED_NO_ACTION_REQUIRED', 'soon by the next year begin date alone');
  const unknownNext = sameNextYear({ copayment: null, oop_max: null });
  assert.equal(resetRules(endingSoon(unknownNext), TODAY).reset_benefits_status, 'DETECTED_NO_ACTION_REQUIRED', 'values not reported are not compared');
});

test('reset soon with changes: DETECTED_ACTION_REQUIRED for each reason', () => {
  const cases: Array<[string, NextPlanYear, string[]]> = [
    ['copay', sameNextYear({ copayment: 4000 }), ['copay']],
    ['coinsurance', sameNextYear({ coinsurance: 30 }), ['coinsurance']],
    ['member ID', sameNextYear({}, '200MHNA'), ['member_id']],
    ['OOP max', sameNextYear({ oop_max: 500000 }), ['oop_max']],
    ['copay + deductible + OOP max', sameNextYear({ copayment: 2500, deductible: 200000, oop_max: 600000 }), ['copay', 'deductible', 'oop_max']],
  ];
  for (const [name, next, changes] of cases) {
    const r = resetRules(endingSoon(next), TODAY);
    assert.equal(r.plan_reset_soon, true, name);
    assert.equal(r.reset_benefits_status, 'DETECTED_ACTION_REQUIRED', name);
    assert.deepEqual(r.reset_benefits?.changes, changes, name);
    assert.equal(r.reset_benefits?.effective_date, '2026-01-01');
  }
  const r = resetRules(endingSoon(sameNextYear({ copayment: 2500, deductible: 200000, oop_max: 600000 })), TODAY);
  assert.deepEqual(r.reset_benefits, {
    effective_date: '2026-01-01',
    changes: ['copay', 'deductible', 'oop_max'],
    copayment: 2500,
    coinsurance: 20,
    deductible: 200000,
    oop_max: 600000,
    member_id: '100MHNA',
  });
});

test('reset comparisons read absent amounts as the plan has them', () => {
  const noDeductible = { ...inNetwork, deductible: null, deductible_applies: false };
  assert.deepEqual(
    resetRules(endingSoon(sameNextYear({ deductible: 0 }), { in_network: noDeductible }), TODAY).reset_benefits?.changes,
    [],
    'no deductible = 0 deductible',
  );
  const noOop = { ...inNetwork, oop_max: null };
  assert.deepEqual(resetRules(endingSoon(sameNextYear(), { in_network: noOop }), TODAY).reset_benefits?.changes, ['oop_max'], 'an OOP max introduced');
  const copayOnly = { ...inNetwork, coinsurance: null };
  assert.deepEqual(
    resetRules(endingSoon(sameNextYear({ coinsurance: 0 }), { in_network: copayOnly }), TODAY).reset_benefits?.changes,
    [],
    'no coinsurance = 0 %',
  );
  assert.deepEqual(
    resetRules(endingSoon(sameNextYear(), { in_network: noDeductible }), TODAY).reset_benefits?.changes,
    ['deductible'],
    'a deductible introduced',
  );
  const noIds = { first_name: 'Ana', last_name: 'Diaz', member_id: null, gender: null, dob: null, address: null };
  assert.deepEqual(
    resetRules(endingSoon(sameNextYear(), { member: noIds, subscriber: noIds }), TODAY).reset_benefits?.changes,
    [],
    'unknown member ID is not compared',
  );
  assert.deepEqual(resetRules(endingSoon(sameNextYear(), { member: noIds }), TODAY).reset_benefits?.changes, [], "the subscriber's ID stands in");
  const unknownShare = { ...inNetwork, copayment: null, coinsurance: null };
  assert.deepEqual(
    resetRules(endingSoon(sameNextYear(), { in_network: unknownShare }), TODAY).reset_benefits?.changes,
    [],
    'unknown current cost share is not compared',
  );
  assert.deepEqual(resetRules(endingSoon(sameNextYear(), { in_network: null }), TODAY).reset_benefits?.changes, [], 'no in-network benefits known');
});

test('whenever a reset is DETECTED_*, plan_reset_soon is true; NOT_DETECTED carries no reset_benefits', () => {
  const day = fc.integer({ min: 0, max: 800 }).map((n) => new Date(Date.UTC(2025, 0, 1) + n * 86_400_000).toISOString().slice(0, 10));
  const next = fc.option(
    fc.record({
      begin_date: day,
      member_id: fc.option(fc.constantFrom('100MHNA', '200MHNA'), { nil: null }),
      in_network: fc.option(
        fc.record({
          copayment: fc.option(fc.constantFrom(3000, 4000), { nil: null }),
          coinsurance: fc.option(fc.constantFrom(20, 30), { nil: null }),
          deductible: fc.option(fc.constantFrom(150000, 0), { nil: null }),
          oop_max: fc.option(fc.constantFrom(400000, 500000), { nil: null }),
        }),
        { nil: null },
      ),
    }),
    { nil: null },
  );
  fc.assert(
    fc.property(day, fc.option(day, { nil: null }), next, (today, end, nextYear) => {
      const r = resetRules(coverage({ plan_end_date: end, next_plan_year: nextYear }), today);
      if (r.reset_benefits_status !== 'NOT_DETECTED') {
        assert.equal(r.plan_reset_soon, true);
        assert.equal(r.reset_benefits?.changes.length !== 0, r.reset_benefits_status === 'DETECTED_ACTION_REQUIRED');
      } else {
        assert.equal(r.reset_benefits, null);
      }
      assert.ok(['ACTIVE', 'INACTIVE', 'ACTIVE_AT_RISK'].includes(planStatus(coverage({ plan_end_date: end, next_plan_year: nextYear }), today)));
    }),
    { numRuns: 500 },
  );
});

test("a coverage read for a visit in the next plan year compares this year's in-network benefits (kept beside), not the next year's it prices with", () => {
  const next = sameNextYear({ copayment: 4000 });
  const nextYearsBenefits: NetworkBenefits = { ...inNetwork, copayment: 4000 };
  const readForNextYear = endingSoon(next, { in_network: nextYearsBenefits, this_plan_year_in_network: inNetwork });
  const r = resetRules(readForNextYear, TODAY);
  assert.equal(r.reset_benefits_status, 'DETECTED_ACTION_REQUIRED');
  assert.deepEqual(r.reset_benefits?.changes, ['copay']);
  // This year's in-network benefits unknown: nothing of them is compared.
  const unknownThisYear = resetRules(endingSoon(next, { in_network: nextYearsBenefits, this_plan_year_in_network: null }), TODAY);
  assert.deepEqual(unknownThisYear.reset_benefits?.changes, []);
});

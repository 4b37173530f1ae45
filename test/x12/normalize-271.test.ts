import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Coverage } from '../../src/domain/coverage.ts';
import fc from 'fast-check';
import { build271, normalize271 } from '../../src/x12/index.ts';
import { coverageArbitrary, inquiryArbitrary } from './coverage-arbitrary.ts';
import { body271, interchange } from './x12-fixtures.ts';

function read(subscriber: string[], dependent?: string[]): { coverage: Coverage; warnings: string[] } {
  const r = normalize271(interchange('271', body271(subscriber, dependent)));
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  assert.equal(r.value.kind, 'coverage');
  assert.ok(r.value.kind === 'coverage');
  return { coverage: r.value.coverage, warnings: r.warnings };
}

const coverage = (...segs: string[]) => read(segs).coverage;

test('deductible and OOP by level and period: 23 totals, 29 remaining, 24 met', () => {
  const c = coverage(
    'EB*1**30*PR*VALUE PPO',
    'EB*C*IND*30***23*1500*****Y',
    'EB*C*IND*30***29*1200.50*****Y',
    'EB*C*FAM*30***23*3000*****Y',
    'EB*C*FAM*30***24*1000*****Y',
    'EB*G*IND*30***25*6000*****Y',
    'EB*G*FAM*30***32*12000*****N',
    'EB*A**MH*****.2****Y',
  );
  assert.deepEqual(c.in_network, {
    copayment: null,
    coinsurance: 20,
    deductible_applies: true,
    deductible: { individual: { total: 150000, remaining: 120050 }, family: { total: 300000, remaining: 200000 } },
    oop_max: { individual: { total: 600000, remaining: null }, family: { total: null, remaining: null } },
    visit_limit: null,
  });
  assert.deepEqual(c.out_of_network?.oop_max, { individual: { total: null, remaining: null }, family: { total: 1200000, remaining: null } });
  assert.equal(c.out_of_network?.deductible, null);
  assert.equal(c.plan_type, 'PPO');
  assert.equal(c.mental_health_coverage, 'active', 'an MH cost share says MH is covered');
});

test('service type preference: MH over CF/A6/A8 over 30/98', () => {
  const c = coverage(
    'EB*1**30*HM',
    'EB*B**30***27*50*****Y',
    'EB*B**98***27*45*****Y',
    'EB*B**A8***27*35*****Y',
    'EB*B**1^MH^UC***27*20*****Y',
    'EB*B**98***27*40*****N',
    'EB*B**CF^UC***27*30*****N',
    'EB*B**UC***27*5*****N',
  );
  assert.equal(c.in_network?.copayment, 2000);
  assert.equal(c.out_of_network?.copayment, 3000);
});

test('EB12 W or absent applies to both networks; status EBs without EB12 create no network', () => {
  const both = coverage('EB*1**30*HM', 'EB*B**MH***27*25*****W', 'EB*A**MH*****0.1');
  assert.equal(both.in_network?.copayment, 2500);
  assert.equal(both.out_of_network?.copayment, 2500);
  assert.equal(both.out_of_network?.coinsurance, 10);
  const none = coverage('EB*1**30*HM', 'EB*1**MH');
  assert.equal(none.in_network, null);
  assert.equal(none.out_of_network, null);
  assert.equal(none.mental_health_coverage, 'active');
  const marked = coverage('EB*1**30*HM', 'EB*1**MH*********Y');
  assert.deepEqual(marked.in_network, { copayment: null, coinsurance: null, deductible_applies: false, deductible: null, oop_max: null, visit_limit: null });
});

test('mental health status: inactive MH EB, unknown without MH data', () => {
  assert.equal(coverage('EB*1**30*HM', 'EB*6**MH').mental_health_coverage, 'inactive');
  assert.equal(coverage('EB*1**30*HM', 'EB*B**30***27*25*****Y').mental_health_coverage, 'unknown');
  assert.equal(coverage('EB*1**30*HM', 'EB*1**A6').mental_health_coverage, 'active');
});

test('coverage status from the plan-level EB01', () => {
  assert.equal(coverage('EB*1**30').coverage_status, 'active');
  assert.equal(coverage('EB*5**30').coverage_status, 'active_pending_investigation');
  assert.equal(coverage('EB*6**30').coverage_status, 'inactive');
  assert.equal(coverage('EB*8').coverage_status, 'inactive');
  // No status row for the plan or for mental health: unknown, never active for its cost shares nor inactive.
  const { coverage: c, warnings } = read(['EB*B**MH***27*10*****Y']);
  assert.equal(c.coverage_status, 'unknown');
  assert.match(warnings[0]!, /no eligibility status EB/);
  assert.equal(coverage('EB*1**MH').coverage_status, 'active', "mental health's own status stands for the plan");
  assert.equal(coverage('EB*6**MH').coverage_status, 'inactive');
  // A status row covers the service types it lists: other services', or substance abuse's, say nothing of the session;
  // a limited program active alone is active for its own services only (limited-program.test.ts: the session not covered).
  for (const types of ['82', '86', '82^86', '35', 'AI', 'AI^AJ^AK', 'AL'])
    for (const info of ['1', '6']) {
      const limited = info === '1' && !types.startsWith('AI');
      assert.equal(coverage(`EB*${info}**${types}*MC`).coverage_status, limited ? 'active' : 'unknown', `EB*${info}**${types}`);
    }
  assert.equal(coverage('EB*1**82*MC', 'EB*6**30*MC').coverage_status, 'inactive', "the plan's row decides beside another service's");
});

test('insurance and plan types from EB04', () => {
  const kind = (...segs: string[]) => {
    const c = coverage(...segs);
    return [c.insurance_type, c.plan_type];
  };
  assert.deepEqual(kind('EB*1**30*MA'), ['medicare', null]);
  assert.deepEqual(kind('EB*1**30*MB', 'EB*1**30*MA'), ['medicare', null]);
  assert.deepEqual(kind('EB*1**30*HN'), ['medicare_advantage', 'HMO']);
  assert.deepEqual(kind('EB*1**30*HN', 'EB*1**30*PR'), ['medicare_advantage', 'PPO']);
  assert.deepEqual(kind('EB*1**30*MC'), ['medicaid', null]);
  assert.deepEqual(kind('EB*1**30*MC', 'EB*MC**30*HM'), ['managed_medicaid', 'HMO']);
  assert.deepEqual(kind('EB*1**30*MC', 'LS*2120', 'NM1*Y2*2*CARE PLUS MCO', 'LE*2120'), ['managed_medicaid', null]);
  assert.deepEqual(kind('EB*1**30*QM'), ['qmb', null]);
  assert.deepEqual(kind('EB*1**30*EP'), ['commercial', 'EPO']);
  assert.deepEqual(kind('EB*1**30*PS'), ['commercial', 'POS']);
  assert.deepEqual(kind('EB*1**30*IN'), ['commercial', 'INDEMNITY']);
  assert.deepEqual(kind('EB*1**30*C1'), ['commercial', null]);
  assert.deepEqual(kind('EB*1**30', 'EB*B**MH*HM**27*10*****Y'), ['commercial', 'HMO']);
  assert.deepEqual(kind('EB*1**30*C1', 'MSG*THIS IS AN HDHP WITH HSA'), ['commercial', 'HDHP']);
  assert.deepEqual(kind('EB*1**30*PR', 'MSG*MARKETPLACE PLAN - GRACE PERIOD RULES APPLY'), ['marketplace', 'PPO']);
});

test('MSG hints: deductible waived or applying, flags; canonical hint texts stay out of messages', () => {
  const { coverage: c } = read([
    'EB*1**30*PR*SILVER',
    'MSG*BLUECARD',
    'MSG*HIGH DEDUCTIBLE HEALTH PLAN',
    'MSG*PREMIUM GRACE PERIOD; CLAIMS MAY PEND',
    'EB*B**MH***27*30*****Y',
    'MSG*COPAY APPLIES BEFORE DEDUCTIBLE',
    'EB*C*IND*30***23*1000*****Y',
    'EB*A**MH*****0.3****N',
    'MSG*Deductible applies to out of network services',
  ]);
  assert.equal(c.is_bluecard, true);
  assert.equal(c.is_hdhp, true);
  assert.equal(c.is_marketplace, false);
  assert.equal(c.plan_type, 'PPO', 'an explicit plan type wins over the HDHP flag');
  assert.equal(c.in_network?.deductible_applies, false);
  assert.equal(c.out_of_network?.deductible_applies, true);
  assert.deepEqual(c.messages, ['PREMIUM GRACE PERIOD; CLAIMS MAY PEND', 'COPAY APPLIES BEFORE DEDUCTIBLE', 'Deductible applies to out of network services']);
  const waived = coverage('EB*1**30*PR', 'EB*C*IND*30***23*500*****Y', 'MSG*DEDUCTIBLE WAIVED', 'EB*B**MH***27*20*****Y');
  assert.equal(waived.in_network?.deductible_applies, false);
  assert.deepEqual(waived.messages, []);
});

test('hint MSGs on non-behavioral benefits do not change the MH deductible rule', () => {
  const c = coverage('EB*1**30*PR', 'EB*C*IND*30***23*500*****Y', 'EB*A**MH*****.2****Y', 'EB*B**UC***27*75*****Y', 'MSG*DEDUCTIBLE WAIVED');
  assert.equal(c.in_network?.deductible_applies, true);
  // Without a behavioral cost share nothing says whether the deductible holds one.
  const none = coverage('EB*1**30*PR', 'EB*C*IND*30***23*500*****Y', 'EB*B**UC***27*75*****Y', 'MSG*DEDUCTIBLE WAIVED');
  assert.equal(none.in_network?.deductible_applies, false);
});

test('telehealth: III*ZZ*02 / 10 cost shares, kept only when they differ from in-person', () => {
  const c = coverage(
    'EB*1**30*PR',
    'EB*B**MH***27*40*****Y',
    'EB*B**MH***27*0*****Y',
    'III*ZZ*02',
    'EB*B**MH***27*60*****N',
    'EB*B**MH***27*60*****N',
    'III*ZZ*10',
  );
  assert.equal(c.in_network?.copayment, 4000, 'the telehealth EB is not the in-person copay');
  assert.deepEqual(c.telehealth, { in_network: { copayment: 0, coinsurance: null }, out_of_network: null });
  assert.equal(coverage('EB*1**30*PR', 'EB*B**MH***27*40*****Y', 'EB*B**MH***27*40*****Y', 'III*ZZ*02').telehealth, null);
  assert.equal(coverage('EB*1**30*PR', 'EB*B**MH***27*40*****Y', 'EB*B**MH***27*10*****Y', 'III*ZZ*11').telehealth, null, 'POS 11 is the office');
});

test('visit limits: EB*F with VS, total and remaining', () => {
  const c = coverage('EB*1**30*PR', 'EB*F**MH***23***VS*30**Y', 'EB*F**MH***29***VS*12**Y', 'EB*F**MH***23*5000*****Y');
  assert.deepEqual(c.in_network?.visit_limit, { total: 30, remaining: 12 });
  assert.equal(c.out_of_network, null);
});

test('PCP: person with NPI and practice; organization only; NM1*P3 outside EB*L', () => {
  const both = coverage('EB*1**30*HM', 'EB*L', 'LS*2120', 'NM1*P3*1*MARQUEZ*ELENA****XX*1548273941', 'NM1*P3*2*EASTSIDE FAMILY HEALTH', 'LE*2120');
  assert.deepEqual(both.pcp, { first_name: 'ELENA', last_name: 'MARQUEZ', npi: '1548273941', organization_name: 'EASTSIDE FAMILY HEALTH' });
  const org = coverage('EB*1**30*HM', 'EB*L', 'LS*2120', 'NM1*P3*2*NORTH CLINIC*****XX*1234567893', 'PER*IC**TE*8005550100', 'LE*2120');
  assert.deepEqual(org.pcp, { first_name: null, last_name: null, npi: '1234567893', organization_name: 'NORTH CLINIC' });
  const loose = coverage('EB*1**30*HM', 'LS*2120', 'NM1*P3*1*LEE*ANN', 'LE*2120');
  assert.deepEqual(loose.pcp, { first_name: 'ANN', last_name: 'LEE', npi: null, organization_name: null });
  assert.equal(coverage('EB*1**30*HM', 'EB*L').pcp, null);
});

test('carve-outs: EB*U / EB*R on MH naming an administrator, or MH active with a 2120 payer and no cost share', () => {
  const u = coverage(
    'EB*1**30*HM',
    'EB*1**MH',
    'EB*U**MH',
    'LS*2120',
    'NM1*PR*2*MINDFUL BH*****PI*MBH01',
    'PER*IC*CUSTOMER SERVICE*TE*8005550142*UR*WWW.EXAMPLE.COM',
    'LE*2120',
  );
  assert.equal(u.mental_health_coverage, 'carved_out');
  assert.deepEqual(u.third_party_payer, { name: 'MINDFUL BH', payer_id: 'MBH01', phone: '8005550142' });
  const r = coverage('EB*1**30*HM', 'EB*R**A6^MH', 'LS*2120', 'NM1*VN*2*BEACON*****XV*BCN', 'LE*2120');
  assert.deepEqual(r.third_party_payer, { name: 'BEACON', payer_id: 'BCN', phone: null });
  assert.deepEqual(r.additional_policies, []);
  const status = coverage('EB*1**30*HM', 'EB*1**MH', 'LS*2120', 'NM1*PR*2*OPTUM BH', 'PER*IC**FX*1*TE*8005550000', 'LE*2120');
  assert.equal(status.mental_health_coverage, 'carved_out');
  assert.deepEqual(status.third_party_payer, { name: 'OPTUM BH', payer_id: null, phone: '8005550000' });
  const withCostShare = coverage('EB*1**30*HM', 'EB*1**MH', 'LS*2120', 'NM1*PR*2*OPTUM BH', 'LE*2120', 'EB*B**MH***27*20*****Y');
  assert.equal(withCostShare.third_party_payer, null);
  assert.equal(withCostShare.mental_health_coverage, 'active');
});

test('carve-outs: EB*W (other source of data) on the behavioral-health types, named or not; never on 30, 98 or other services', () => {
  const plan = ['EB*1**30*HM', 'EB*B**98***27*20*****Y'];
  for (const types of ['MH', 'A6', 'A4^A7', 'A6^A7^A8^AI^MH', 'CF', '98^MH']) {
    const c = coverage(...plan, `EB*W**${types}`, 'MSG*PLEASE CONTACT YOUR BEHAVIORAL HEALTH PROGRAM ADMINISTRATOR @ 1-888-555-0147');
    assert.equal(c.mental_health_coverage, 'carved_out', types);
    assert.equal(c.third_party_payer, null, `${types}: the MSG names a role, not an administrator`);
  }
  // Substance abuse's own types (AI, AJ, AK) alone are no mental-health carve-out either (docs/estimates.md 1.3).
  for (const types of ['30', '', '98', '35', '88^35', 'A7', 'AI', 'AI^AJ^AK']) {
    const c = coverage(...plan, `EB*W**${types}`, 'MSG*PLEASE CONTACT YOUR BEHAVIORAL HEALTH PROGRAM ADMINISTRATOR @ 1-888-555-0147');
    assert.equal(c.mental_health_coverage, 'unknown', `W on ${types || '(none)'} says nothing of an office session's behavioral health`);
    assert.equal(c.in_network?.copayment, 2000);
  }
  const named = coverage(...plan, 'EB*W**MH', 'LS*2120', 'NM1*VN*2*HARBOR BH*****PI*HBH01', 'PER*IC**TE*8005550161', 'LE*2120');
  assert.deepEqual(named.third_party_payer, { name: 'HARBOR BH', payer_id: 'HBH01', phone: '8005550161' });
  const inMsg = coverage(...plan, 'EB*W**A6^MH', 'MSG*BEHAVIORAL HEALTH MANAGED BY ACME BH AT 800-555-0123');
  assert.deepEqual(inMsg.third_party_payer, { name: 'ACME BH', payer_id: null, phone: '8005550123' });
  const reviewerOnly = coverage(...plan, 'EB*W**MH', 'LS*2120', 'NM1*X3*2*CAREFUL REVIEW INC', 'LE*2120');
  assert.equal(reviewerOnly.mental_health_coverage, 'carved_out', 'a reviewer is no administrator, but the W still hands the benefit elsewhere');
  assert.equal(reviewerOnly.third_party_payer, null);
  // Beside the medical plan's own MH copay, as for an EB*U naming the administrator in its MSG: the cost share is unknown, never the copay.
  for (const rows of [
    ['EB*B**MH***27*30*****Y', 'EB*W**MH'],
    ['EB*W**MH', 'EB*B**MH***27*30*****Y'],
  ])
    assert.equal(coverage('EB*1**30*HM', ...rows).mental_health_coverage, 'carved_out', rows.join(' '));
  const u = coverage(...plan, 'EB*U**MH', 'LS*2120', 'NM1*Y2*2*HARBOR BH', 'LE*2120', 'EB*W**MH');
  assert.deepEqual(u.third_party_payer, { name: 'HARBOR BH', payer_id: null, phone: null }, 'a named administrator beats an unnamed other source');
});

test('utilization manager: EB*U with a 2120 NM1*X3', () => {
  const c = coverage('EB*1**30*HM', 'EB*U**MH', 'LS*2120', 'NM1*X3*2*CAREFUL REVIEW INC*****PI*UM7', 'PER*IC**TE*8885550199', 'LE*2120');
  assert.deepEqual(c.utilization_manager, { name: 'CAREFUL REVIEW INC', payer_id: 'UM7', phone: '8885550199' });
  assert.equal(c.third_party_payer, null);
  assert.equal(c.mental_health_coverage, 'unknown');
});

test('additional policies: EB*R with PRP/SEP/TTP/PR and REF*IG', () => {
  const c = coverage(
    'EB*1**30*HM',
    'EB*R**30*MB',
    'REF*IG*1EG4TE5MK72',
    'LS*2120',
    'NM1*PRP*2*MEDICARE*****PI*CMS',
    'LE*2120',
    'EB*R**30*12',
    'LS*2120',
    'NM1*SEP*2*EMPLOYER PLAN',
    'LE*2120',
    'EB*R',
    'LS*2120',
    'NM1*PR*2*OTHER PAYER*****PI*OP1',
    'LE*2120',
    'EB*R**30',
  );
  assert.deepEqual(c.additional_policies, [
    { payer_name: 'MEDICARE', payer_id: 'CMS', policy_number: '1EG4TE5MK72', insurance_type: 'medicare', coordination: 'primary' },
    { payer_name: 'EMPLOYER PLAN', payer_id: null, policy_number: null, insurance_type: 'commercial', coordination: 'secondary' },
    { payer_name: 'OTHER PAYER', payer_id: 'OP1', policy_number: null, insurance_type: null, coordination: null },
  ]);
});

test('additional policies: EB*U naming a 2120C PRP/SEP/TTP is another payer; other entities under EB*U are contacts', () => {
  const c = coverage(
    'EB*1**30*HM',
    'EB*U**30*MB',
    'REF*IG*1EG4TE5MK72',
    'LS*2120',
    'NM1*PRP*2*MEDICARE PART B*****PI*CMS',
    'LE*2120',
    'LS*2120',
    'NM1*PR*2*CLAIMS OFFICE',
    'LE*2120',
    'EB*U**1',
    'LS*2120',
    'NM1*TTP*2*STATE PROGRAM*****MI*ST0042',
    'LE*2120',
  );
  assert.deepEqual(c.additional_policies, [
    { payer_name: 'MEDICARE PART B', payer_id: 'CMS', policy_number: '1EG4TE5MK72', insurance_type: 'medicare', coordination: 'primary' },
    { payer_name: 'STATE PROGRAM', payer_id: null, policy_number: 'ST0042', insurance_type: null, coordination: 'tertiary' },
  ]);
  assert.equal(c.third_party_payer, null, 'EB*U on 30 or 1 names no behavioral-health administrator');
  const contact = coverage('EB*1**30*HM', 'EB*U**48', 'LS*2120', 'NM1*PR*2*HOSPITAL CLAIMS UNIT', 'LE*2120');
  assert.deepEqual(contact.additional_policies, [], 'an NM1*PR under EB*U is whom to ask, not another payer');
  const carve = coverage('EB*1**30*HM', 'EB*U**MH', 'LS*2120', 'NM1*SEP*2*SECOND PLAN', 'LE*2120', 'LS*2120', 'NM1*PR*2*MINDFUL BH', 'LE*2120');
  assert.deepEqual(carve.third_party_payer, { name: 'MINDFUL BH', payer_id: null, phone: null });
  assert.deepEqual(carve.additional_policies, [
    { payer_name: 'SECOND PLAN', payer_id: null, policy_number: null, insurance_type: null, coordination: 'secondary' },
  ]);
});

test('additional policies: a payer EB*U names on IND and FAM rows, or an EB*R already lists, is listed once in any row order', () => {
  const rows = [
    ['EB*R**30*MB', 'LS*2120', 'NM1*PRP*2*MEDICARE*****PI*CMS', 'LE*2120'],
    ['EB*U*IND*48', 'LS*2120', 'NM1*PRP*2*MEDICARE', 'LE*2120'],
    ['EB*U*FAM*48', 'LS*2120', 'NM1*PRP*2*MEDICARE', 'LE*2120'],
    ['EB*U*IND*A7', 'LS*2120', 'NM1*SEP*2*EMPLOYER PLAN', 'LE*2120'],
    ['EB*U*FAM*A7', 'LS*2120', 'NM1*SEP*2*EMPLOYER PLAN', 'LE*2120'],
  ];
  const expected = [
    { payer_name: 'MEDICARE', payer_id: 'CMS', policy_number: null, insurance_type: 'medicare', coordination: 'primary' },
    { payer_name: 'EMPLOYER PLAN', payer_id: null, policy_number: null, insurance_type: null, coordination: 'secondary' },
  ];
  for (const order of [
    [0, 1, 2, 3, 4],
    [4, 3, 2, 1, 0],
    [2, 4, 0, 3, 1],
  ]) {
    const c = coverage('EB*1**30*HM', ...order.flatMap((i) => rows[i]!));
    assert.deepEqual(
      [...c.additional_policies].sort((a, b) => a.payer_name.localeCompare(b.payer_name)),
      [...expected].sort((a, b) => a.payer_name.localeCompare(b.payer_name)),
      order.join(','),
    );
  }
});

test('additional policies: another payer counts whatever service its row names; only its own dates exclude it', () => {
  // The default encounter is an office visit on the BHT date (2025-01-01): 48 and A7 are inpatient service types.
  const tricare = read([
    'DTP*346*D8*20110110',
    'EB*U**48',
    'LS*2120',
    'NM1*PRP*2*PRIMARY PAYER IS EXAMPLE LIFE PLAN',
    'N3*PO BOX 1',
    'N4*MADISON*WI*53701',
    'PER*IC**WP*8005550190',
    'LE*2120',
  ]);
  assert.deepEqual(tricare.coverage.additional_policies, [
    { payer_name: 'PRIMARY PAYER IS EXAMPLE LIFE PLAN', payer_id: null, policy_number: null, insurance_type: null, coordination: 'primary' },
  ]);
  const ended = coverage('EB*1**30*HM', 'EB*R**30', 'DTP*290*RD8*20230101-20231231', 'LS*2120', 'NM1*PRP*2*OLD PLAN', 'LE*2120');
  assert.deepEqual(ended.additional_policies, [], 'a coordination-of-benefits range (DTP 290) before the date of service');
  const later = coverage('EB*1**30*HM', 'EB*U**48', 'DTP*348*D8*20250301', 'LS*2120', 'NM1*SEP*2*LATER PLAN', 'LE*2120');
  assert.deepEqual(later.additional_policies, [], 'a row beginning after the date of service');
});

test('dates: 346/347/357, RD8 291 and 307 fallbacks', () => {
  const a = coverage('DTP*346*D8*20250101', 'DTP*347*D8*20251231', 'DTP*357*D8*20250630', 'EB*1**30');
  assert.deepEqual([a.plan_begin_date, a.plan_end_date, a.eligibility_end_date], ['2025-01-01', '2025-12-31', '2025-06-30']);
  const b = coverage('DTP*291*RD8*20240701-20250630', 'DTP*307*RD8*20240701-20241231', 'EB*1**30');
  assert.deepEqual([b.plan_begin_date, b.plan_end_date, b.eligibility_end_date], ['2024-07-01', '2025-06-30', '2024-12-31']);
  const bad = coverage('DTP*346*D8*20250231', 'EB*1**30');
  assert.equal(bad.plan_begin_date, null);
});

test('next plan year: DTP*348 after the current plan, REF*1W new member ID', () => {
  const c = coverage(
    'DTP*346*D8*20250101',
    'DTP*347*D8*20251231',
    'EB*1**30*PR',
    'EB*B**MH***27*30*****Y',
    'DTP*348*D8*20250101',
    'EB*1**30',
    'REF*1W*NEW123',
    'DTP*348*D8*20260101',
    'EB*B**MH***27*45*****Y',
    'DTP*348*D8*20260101',
    'EB*C*IND*30***23*2500*****Y',
    'DTP*348*D8*20260101',
    'EB*C*FAM*30***23*5000*****Y',
    'DTP*348*D8*20260101',
  );
  assert.equal(c.in_network?.copayment, 3000, 'a 348 equal to the plan begin is the current year');
  assert.equal(c.in_network?.deductible, null);
  assert.deepEqual(c.next_plan_year, {
    begin_date: '2026-01-01',
    member_id: 'NEW123',
    in_network: { copayment: 4500, coinsurance: null, deductible: 250000, oop_max: null },
  });
});

test('demographics: corrected by the payer, missing address, dependent spouse with own ID', () => {
  const self = read(['N4*DENVER*CO*80202', 'DMG*D8*19800101*F', 'INS*Y*18*001*25', 'EB*1**30']).coverage;
  assert.equal(self.payer_corrected_demographics, true);
  assert.deepEqual(self.member.address, { street_line_1: '', street_line_2: null, city: 'DENVER', state: 'CO', zip: '80202' });
  const bare = read(['EB*1**30']).coverage;
  assert.equal(bare.member.address, null);
  assert.equal(bare.relationship_to_subscriber, 'self');
  assert.deepEqual(bare.subscriber, bare.member);
  const dep = read(['DMG*D8*19700101*M'], ['REF*1W*M100-02', 'DMG*D8*19720202*F', 'INS*N*01', 'EB*1**30*HM']).coverage;
  assert.equal(dep.relationship_to_subscriber, 'spouse');
  assert.equal(dep.member.member_id, 'M100-02');
  assert.equal(dep.member.dob, '1972-02-02');
  assert.equal(dep.subscriber.member_id, 'M100');
  assert.equal(dep.subscriber.first_name, 'JOHN');
  assert.equal(dep.plan_type, 'HMO');
});

test('group: REF*6P number and name, REF*1L fallback; plan name from REF*18 when no EB05', () => {
  const c = coverage('REF*6P*GRP1*ACME WIDGETS', 'EB*1**30*PR');
  assert.deepEqual([c.group_id, c.group_name], ['GRP1', 'ACME WIDGETS']);
  const d = coverage('REF*1L*POL9', 'REF*18*PLN1*SILVER SAVER', 'EB*1**30*PR');
  assert.deepEqual([d.group_id, d.group_name, d.plan_name], ['POL9', null, 'SILVER SAVER']);
});

test('amounts are read from their digits: no float error, sub-cent digits rounded', () => {
  const c = coverage('EB*1**30', 'EB*B**MH***27*0.29*****Y', 'EB*B**MH***27*1234567.899*****N', 'EB*A**MH*****0.075****Y');
  assert.equal(c.in_network?.copayment, 29);
  assert.equal(c.in_network?.coinsurance, 7.5);
  assert.equal(c.out_of_network?.copayment, 123456790);
});

test('benefit-level AAA: a warning beside benefits, the answer without them', () => {
  const { coverage: c, warnings } = read(['EB*1**30*HM', 'EB*1**UC', 'AAA*Y**53*C']);
  assert.equal(c.coverage_status, 'active');
  assert.match(warnings[0]!, /benefit-level AAA 53/);
  const r = normalize271(interchange('271', body271(['EB*L', 'AAA*N**62*C'])));
  assert.ok(r.ok && r.value.kind === 'rejected');
  assert.equal(r.value.level, 'subscriber');
  assert.equal(r.value.error_code, 'PAYER_FAILURE');
});

test('a 271 without a subscriber level or AAA is an error at its ST', () => {
  const r = normalize271(interchange('271', ['BHT*0022*11*T*20250101*1200', 'HL*1**20*0', 'NM1*PR*2*P*****PI*1']));
  assert.equal(r.ok, false);
  assert.ok(!r.ok && /no subscriber level/.test(r.error.message) && r.error.segment_index === 3);
});

test('a batch of 271 transaction sets is read at the set naming the member asked about, in whichever order the sets come', () => {
  /** Two built 271s as one interchange: the second's ST..SE after the first's, in one functional group. */
  const batch = (first: string, second: string) => {
    const set = (t: string) => t.slice(t.indexOf('ST*271'), t.lastIndexOf('GE*'));
    return first.slice(0, first.indexOf('ST*271')) + set(first) + set(second) + first.slice(first.lastIndexOf('GE*')).replace(/^GE\*1\*/, 'GE*2*');
  };
  const person = fc.record({ id: fc.stringMatching(/^[A-Z][0-9]{6,9}$/), last: fc.constantFrom('OKAFOR', 'LINDQVIST', 'REYES') });
  fc.assert(
    fc.property(coverageArbitrary, coverageArbitrary, inquiryArbitrary, person, person, (a, b, inquiry, pa, pb) => {
      fc.pre(pa.id !== pb.id);
      const as = (c: typeof a, p: typeof pa) => ({
        ...c,
        member: { ...c.member, member_id: p.id, last_name: p.last },
        subscriber: { ...c.member, member_id: p.id, last_name: p.last },
        relationship_to_subscriber: 'self' as const,
      });
      const textA = build271(inquiry, { kind: 'coverage', coverage: as(a, pa) }, { control_number: 1 });
      const textB = build271(inquiry, { kind: 'coverage', coverage: as(b, pb) }, { control_number: 1 });
      for (const text of [batch(textA, textB), batch(textB, textA)]) {
        const read = normalize271(text, { memberId: pb.id });
        assert.ok(read.ok && read.value.kind === 'coverage', read.ok ? read.value.kind : read.error.message);
        const alone = normalize271(textB, { memberId: pb.id });
        assert.ok(alone.ok && alone.value.kind === 'coverage');
        assert.deepEqual(read.value.coverage, alone.value.coverage);
        assert.ok(read.warnings.some((w) => /2 271 transaction sets; the one naming the member ID asked about is read/.test(w)));
        // A member no set names gets no answer: never the first set's member.
        const nobody = normalize271(text, { memberId: 'Z999999999' });
        assert.ok(!nobody.ok, 'a batch naming neither member is no answer about a third');
        assert.match(nobody.ok ? '' : nobody.error.message, /none names the member ID asked about/);
      }
    }),
    { numRuns: 40 },
  );
});

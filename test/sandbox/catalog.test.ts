/** The catalog covers every scenario docs/interface.md section 7 names, and the README shows the same member table. */
import assert from 'node:assert/strict';
import type { Inquiry } from '../../src/domain/inquiry.ts';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CATALOG } from '../../src/sandbox/catalog.ts';
import { memberTableMarkdown } from '../../src/sandbox/member-table-markdown.ts';
import { resolveDateToken } from '../../src/payers/sandbox/resolve-plan.ts';
import { lookup } from '../../src/payers/sandbox/lookup.ts';
import { coverageAnswer, coverageFor } from '../../src/payers/sandbox/network.ts';
import { estimateBody } from '../../src/operations/estimate.ts';
import type { EstimateResponse } from '../../src/domain/schemas/responses.ts';
import { build271, normalize271 } from '../../src/x12/index.ts';

test('the README shows the catalog table exactly (run scripts/update-readme-members.ts after catalog edits)', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  assert.ok(readme.includes(memberTableMarkdown()));
});

test('every suffix of docs/interface.md 7.4 has a scenario and a named member', () => {
  for (const suffix of ['NA', 'UC', 'UA', 'OMCR', 'MA', 'OMCD', 'MM', 'CA', 'SP', 'MNF', 'RR', 'EXP', 'EXS', 'DM']) {
    assert.ok(
      CATALOG.suffixes.some((s) => s.suffix === suffix),
      suffix,
    );
    assert.ok(
      CATALOG.members.some((m) => m.member_id.endsWith(`MH${suffix}`)),
      `named member for ${suffix}`,
    );
  }
});

test('every category of docs/interface.md 7.5, behaviour of section 2, group of 7.3 and discover error of 7.6 has a named member', () => {
  const scenarios = new Set(CATALOG.members.map((m) => m.scenario));
  for (const s of [
    'active_commercial',
    'coinsurance_after_deductible',
    'copay_after_deductible',
    'deductible_met',
    'deductible_and_oop_met',
    'missing_totals',
    'ppo',
    'original_medicare',
    'medicare_advantage',
    'medicare_supplemental',
    'managed_medicaid',
    'state_medicaid_active',
    'state_medicaid_inactive',
    'qmb',
    'inactive',
    'active_at_risk',
    'telehealth',
    'marketplace',
    'high_deductible',
    'bluecard',
    'demographic_mismatch',
    'demographic_mismatch_payer_corrected',
    'missing_address',
    'pcp_with_organization',
    'pcp_without_organization',
    'carve_out',
    'additional_policy',
    'utilization_manager',
    'reset_no_action',
    'reset_copay_change',
    'reset_coinsurance_change',
    'reset_member_id_change',
    'reset_oop_max_change',
    'reset_copay_deductible_oop_change',
    'provider_not_recognized',
    'member_not_found',
    'payer_throttled',
    'payer_failure',
    'payer_not_supported',
    'unknown_costshare',
    'unknown_remainings',
  ]) {
    assert.ok(scenarios.has(s), s);
  }
  const discoverCodes = new Set(CATALOG.members.flatMap((m) => (m.expect.discover ? [m.expect.discover.status] : [])));
  for (const status of [400, 404, 429]) assert.ok(discoverCodes.has(status), `discover ${status}`);
});

test('named members have unique IDs, names, DOBs and known plans and payers', () => {
  const ids = CATALOG.members.map((m) => m.member_id);
  assert.equal(new Set(ids).size, ids.length);
  const people = CATALOG.members.map((m) => `${m.person.first_name}|${m.person.last_name}|${m.person.dob}`.toUpperCase());
  assert.equal(new Set(people).size, people.length);
  for (const m of CATALOG.members) {
    assert.ok(CATALOG.plans[m.plan], `${m.member_id} plan ${m.plan}`);
    assert.ok(
      CATALOG.payers.some((p) => p.payer_id === m.payer_id),
      `${m.member_id} payer ${m.payer_id}`,
    );
    assert.match(m.person.dob, /^\d{4}-\d{2}-\d{2}$/);
  }
});

test('date tokens resolve against the injected day', () => {
  assert.equal(resolveDateToken('@today+20', '2026-12-20'), '2027-01-09');
  assert.equal(resolveDateToken('@today-40', '2026-03-01'), '2026-01-20');
  assert.equal(resolveDateToken('@year_start', '2026-06-15'), '2026-01-01');
  assert.equal(resolveDateToken('@year_end', '2026-06-15'), '2026-12-31');
  assert.equal(resolveDateToken('@last_year_start', '2026-06-15'), '2025-01-01');
  assert.equal(resolveDateToken('2019-03-01', '2026-06-15'), '2019-03-01');
  assert.throws(() => resolveDateToken('@someday', '2026-06-15'));
});

/** A payer's brand: the first word of its name. Medicare and the state Medicaid programs are programs, not brands. */
const brands = new Map(
  CATALOG.payers.filter((p) => p.medicaid_state === null && p.payer_id !== 'SBX-MEDICARE').map((p) => [p.payer_id, p.name.split(' ')[0]!.toUpperCase()]),
);

function planNameBelongs(payerId: string, planName: string | null, who: string): void {
  const words = new Set((planName ?? '').toUpperCase().split(/[^A-Z0-9]+/));
  for (const [other, brand] of brands) {
    if (other !== payerId) assert.ok(!words.has(brand), `${who}: plan "${planName}" names ${brand}, another payer's brand`);
  }
  const own = brands.get(payerId);
  if (own) assert.ok((planName ?? '').toUpperCase().startsWith(`${own} `), `${who}: plan "${planName}" does not carry its payer's brand ${own}`);
}

test("every member's plan name belongs to its payer (named members, generated IDs, carve-out administrators)", () => {
  for (const m of CATALOG.members) planNameBelongs(m.payer_id, CATALOG.plans[m.plan]!.plan_name, m.member_id);
  for (const s of CATALOG.suffixes) {
    planNameBelongs(CATALOG.defaultSuffixPayer[s.suffix] ?? CATALOG.defaultPayerId, CATALOG.plans[s.plan]!.plan_name, `MH${s.suffix}`);
  }
  for (const [payerId, plan] of Object.entries(CATALOG.administratorPlans)) planNameBelongs(payerId, CATALOG.plans[plan]!.plan_name, payerId);
  // The rule does catch a plan named for another payer.
  assert.throws(() => planNameBelongs('SBX-HARBOR', 'Evergreen Choice PPO', 'check'));
});

test("a generated ID asked of another payer answers under that payer's brand, with the same benefits", () => {
  const who = { member_id: null, first_name: 'Sam', last_name: 'Ortiz', dob: '1990-01-01' };
  for (const s of CATALOG.suffixes) {
    for (const payerId of brands.keys()) {
      const memberId = `7MH${s.suffix}`;
      const inquiry = { subscriber: { ...who, member_id: memberId }, dependent: null } as unknown as Inquiry;
      const hit = lookup(CATALOG, payerId, inquiry);
      if (!hit) continue;
      const plan = CATALOG.plans[hit.plan]!;
      planNameBelongs(hit.payer_id, (hit.overrides?.plan_name as string | undefined) ?? plan.plan_name, `${memberId} at ${payerId}`);
      assert.equal(lookup(CATALOG, payerId, inquiry)!.overrides, hit.overrides, 'one overrides object per scenario and payer (the resolved plan is shared)');
    }
  }
});

const TODAY = '2026-06-15';

/** The 270 a clinic sends about a named member, by its member ID. */
const inquiryFor = (m: (typeof CATALOG.members)[number]): Inquiry => ({
  trace_number: 'CAT0001',
  payer: { id: m.payer_id, name: null },
  provider: { npi: '1234567893', first_name: null, last_name: null, organization_name: 'CATALOG CLINIC' },
  subscriber: { member_id: m.member_id, first_name: m.person.first_name, last_name: m.person.last_name, dob: m.person.dob, zip: null },
  dependent: null,
  service_types: ['MH', '30'],
  date: TODAY,
});

/** What /v1/estimate answers for a named member at $150 in network: catalog -> 271 -> normalizer -> estimate. */
function estimateOf(memberId: string): EstimateResponse {
  const m = CATALOG.members.find((x) => x.member_id === memberId)!;
  const inquiry = inquiryFor(m);
  const hit = lookup(CATALOG, m.payer_id, inquiry);
  assert.ok(hit);
  const read = normalize271(build271(inquiry, { kind: 'coverage', coverage: coverageFor(CATALOG, hit, TODAY) }));
  assert.ok(read.ok && read.value.kind === 'coverage');
  const { status, body } = estimateBody(
    read.value.coverage,
    { member_id: m.member_id, member_first_name: '', member_last_name: '', member_dob: m.person.dob, provider_session_cost: 15000 },
    TODAY,
  );
  assert.equal(status, 200);
  return body;
}

const pick = (b: EstimateResponse) => ({
  benefit_structure: b.benefit_structure,
  member_obligation: b.member_obligation,
  payer_obligation: b.payer_obligation,
  pre_deductible_member_obligation: b.pre_deductible_member_obligation,
  post_deductible_member_obligation: b.post_deductible_member_obligation,
  post_oop_max_member_obligation: b.post_oop_max_member_obligation,
  remaining_sessions_before_deductible: b.remaining_sessions_before_deductible,
  remaining_sessions_before_oop_max: b.remaining_sessions_before_oop_max,
});

// Figures worked by hand from docs/estimates.md sections 4-6, C = $150.
test('10120MHDM: 20 % coinsurance, deductible waived by MSG, OOP $3,600 left', () => {
  const b = estimateOf('10120MHDM');
  assert.equal(b.plan_name, 'HARBOR ACCESS PPO');
  // 20 % x $150 = $30 from the first session; $3,600 / $30 = 120 sessions to the OOP max.
  assert.deepEqual(pick(b), {
    benefit_structure: 'Coinsurance, no deductible, with OOP Max',
    member_obligation: 3000,
    payer_obligation: 12000,
    pre_deductible_member_obligation: 3000,
    post_deductible_member_obligation: 3000,
    post_oop_max_member_obligation: 0,
    remaining_sessions_before_deductible: null,
    remaining_sessions_before_oop_max: 120,
  });
  assert.equal(b.remaining_deductible, 150000, 'the waived deductible is still reported');
});

test('10121MHDM: 30 % coinsurance, no deductible, no OOP max', () => {
  const b = estimateOf('10121MHDM');
  assert.equal(b.plan_type, 'INDEMNITY');
  // 30 % x $150 = $45; no OOP max: no cap and no post-OOP phase.
  assert.deepEqual(pick(b), {
    benefit_structure: 'Coinsurance, no deductible, no OOP Max',
    member_obligation: 4500,
    payer_obligation: 10500,
    pre_deductible_member_obligation: 4500,
    post_deductible_member_obligation: 4500,
    post_oop_max_member_obligation: null,
    remaining_sessions_before_deductible: null,
    remaining_sessions_before_oop_max: null,
  });
});

test('10122MHDM: $45 copay after the deductible, $100 of it left, no OOP max', () => {
  const b = estimateOf('10122MHDM');
  // D = $100 < C: $100 + the $45 copay on the remaining $50 = $145.
  assert.deepEqual(pick(b), {
    benefit_structure: 'Copay after deductible, no OOP Max',
    member_obligation: 14500,
    payer_obligation: 500,
    pre_deductible_member_obligation: 15000,
    post_deductible_member_obligation: 4500,
    post_oop_max_member_obligation: null,
    remaining_sessions_before_deductible: 1,
    remaining_sessions_before_oop_max: null,
  });
});

test('10123MHDM: $10 copay + 10 % after the deductible, $60 of it left', () => {
  const b = estimateOf('10123MHDM');
  // D = $60: $60 + $10 + 10 % x ($90 - $10) = $78. Once met: $10 + 10 % x $140 = $24.
  assert.deepEqual(pick(b), {
    benefit_structure: 'Copay and coinsurance after deductible, with OOP Max',
    member_obligation: 7800,
    payer_obligation: 7200,
    pre_deductible_member_obligation: 15000,
    post_deductible_member_obligation: 2400,
    post_oop_max_member_obligation: 0,
    remaining_sessions_before_deductible: 1,
    // The first session pays $78 (the rest of the deductible with it), then $24 each: (2,900 - 78) / 24 = 117.6 -> 118 more = 119.
    remaining_sessions_before_oop_max: 119,
  });
});

test('10124MHDM: fully covered once the deductible ($250 left, equal to the OOP max left) is met', () => {
  const b = estimateOf('10124MHDM');
  // D = $250 >= C: the whole $150 goes to the deductible; the second session pays the last $100 and reaches the OOP max.
  assert.deepEqual(pick(b), {
    benefit_structure: 'Fully covered after deductible',
    member_obligation: 15000,
    payer_obligation: 0,
    pre_deductible_member_obligation: 15000,
    post_deductible_member_obligation: 0,
    post_oop_max_member_obligation: 0,
    remaining_sessions_before_deductible: 2,
    remaining_sessions_before_oop_max: 2,
  });
  assert.equal(b.is_hdhp, true);
});

test('the EB loops the sandbox keeps per member and day are what the 271 writer writes for the coverage', () => {
  for (const m of CATALOG.members) {
    const inquiry = inquiryFor(m);
    const hit = lookup(CATALOG, m.payer_id, inquiry);
    if (!hit || hit.answer.kind !== 'coverage') continue;
    const kept = coverageAnswer(CATALOG, hit, TODAY);
    assert.ok(kept.benefits && kept.benefits.length > 0, m.member_id);
    assert.equal(coverageAnswer(CATALOG, hit, TODAY), kept, `${m.member_id}: built once per day`);
    const now = new Date('2026-06-15T12:00:00Z');
    assert.equal(build271(inquiry, kept, { now }), build271(inquiry, { kind: 'coverage', coverage: structuredClone(kept.coverage) }, { now }), m.member_id);
  }
});

/** Worked examples of the estimate engine, one table per benefit structure (docs/estimates.md). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Accumulator, Coverage, NetworkBenefits } from '../../src/domain/coverage.ts';
import { BENEFIT_STRUCTURES, type BenefitStructure, type EstimateFinancials } from '../../src/domain/schemas/responses.ts';
import { classifyBenefitStructure, estimate } from '../../src/domain/estimate/index.ts';

const acc = (total: number | null, remaining: number | null): Accumulator => ({ total, remaining });
const NONE = acc(null, null);

interface PlanSpec {
  copay?: number | null;
  coins?: number | null;
  /** Individual deductible total / remaining; undefined: no deductible. */
  ded?: [number | null, number | null];
  famDed?: [number | null, number | null];
  applies?: boolean;
  oop?: [number | null, number | null];
  famOop?: [number | null, number | null];
  visits?: number | null;
}

function plan(p: PlanSpec): NetworkBenefits {
  return {
    copayment: p.copay ?? null,
    coinsurance: p.coins ?? null,
    deductible_applies: p.applies ?? p.ded !== undefined,
    deductible: p.ded ? { individual: acc(...p.ded), family: p.famDed ? acc(...p.famDed) : NONE } : null,
    oop_max: p.oop ? { individual: acc(...p.oop), family: p.famOop ? acc(...p.famOop) : NONE } : null,
    visit_limit: p.visits === undefined ? null : { total: 20, remaining: p.visits },
  };
}

function coverage(inNet: NetworkBenefits | null, extra: Partial<Coverage> = {}): Coverage {
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
    plan_end_date: '2025-12-31',
    eligibility_end_date: null,
    coverage_status: 'active',
    mental_health_coverage: 'active',
    in_network: inNet,
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

type Expect = Partial<EstimateFinancials> & { partial?: 'UNKNOWN_COSTSHARE' | 'UNKNOWN_REMAININGS' | null };
interface Case {
  name: string;
  plan: PlanSpec;
  cost: number | null;
  expect: Expect;
}

function check(structure: BenefitStructure | null, cases: Case[]): void {
  for (const c of cases) {
    const b = plan(c.plan);
    assert.equal(classifyBenefitStructure(b), structure, `${c.name}: classification`);
    const out = estimate(coverage(b), { session_cost: c.cost, in_network: true });
    assert.equal(out.fields.benefit_structure, structure, c.name);
    const { partial, ...fields } = c.expect;
    assert.equal(out.partial, partial ?? null, `${c.name}: partial`);
    for (const [k, v] of Object.entries(fields)) {
      assert.deepEqual(out.fields[k as keyof EstimateFinancials], v, `${c.name}: ${k}`);
    }
    const f = out.fields;
    if (f.member_obligation !== null) assert.equal(f.member_obligation + (f.payer_obligation ?? NaN), c.cost, `${c.name}: split adds up`);
  }
}

const covered = new Set<BenefitStructure>();
function structure(s: BenefitStructure, cases: Case[]): void {
  covered.add(s);
  test(s, () => check(s, cases));
}

structure('Copay, no deductible, with OOP Max', [
  {
    name: 'copay',
    plan: { copay: 3000, oop: [300000, 250000] },
    cost: 20000,
    expect: {
      member_obligation: 3000,
      payer_obligation: 17000,
      pre_deductible_member_obligation: 3000,
      post_deductible_member_obligation: 3000,
      post_oop_max_member_obligation: 0,
      post_oop_max_payer_obligation: 20000,
      remaining_sessions_before_deductible: null,
      remaining_sessions_before_oop_max: 84,
      oop_max: 300000,
      remaining_oop_max: 250000,
      deductible: null,
      remaining_deductible: null,
    },
  },
  {
    name: 'OOP nearly met',
    plan: { copay: 3000, oop: [300000, 1000] },
    cost: 20000,
    expect: {
      member_obligation: 1000,
      payer_obligation: 19000,
      post_deductible_member_obligation: 3000,
      remaining_sessions_before_oop_max: 1,
    },
  },
  {
    name: 'OOP met',
    plan: { copay: 3000, oop: [300000, 0] },
    cost: 20000,
    expect: {
      member_obligation: 0,
      payer_obligation: 20000,
      remaining_sessions_before_oop_max: 0,
    },
  },
  {
    name: 'copay above session cost',
    plan: { copay: 3000, oop: [300000, 250000] },
    cost: 2500,
    expect: {
      member_obligation: 2500,
      payer_obligation: 0,
      post_deductible_member_obligation: 2500,
    },
  },
  {
    name: 'family remaining smaller',
    plan: { copay: 3000, oop: [300000, 250000], famOop: [600000, 2000] },
    cost: 20000,
    expect: {
      oop_max: 300000,
      remaining_oop_max: 2000,
      family_oop_max: 600000,
      family_remaining_oop_max: 2000,
      member_obligation: 2000,
    },
  },
]);

structure('Copay, no deductible, no OOP Max', [
  {
    name: 'copay',
    plan: { copay: 2500 },
    cost: 15000,
    expect: {
      member_obligation: 2500,
      payer_obligation: 12500,
      post_oop_max_member_obligation: null,
      post_oop_max_payer_obligation: null,
      remaining_sessions_before_oop_max: null,
      oop_max: null,
      remaining_oop_max: null,
    },
  },
  {
    name: 'deductible reported but waived',
    plan: { copay: 2500, ded: [100000, 100000], applies: false },
    cost: 15000,
    expect: {
      member_obligation: 2500,
      deductible: 100000,
      remaining_deductible: 100000,
      pre_deductible_member_obligation: 2500,
      remaining_sessions_before_deductible: null,
    },
  },
  { name: 'copay above session cost', plan: { copay: 2500 }, cost: 1999, expect: { member_obligation: 1999, payer_obligation: 0 } },
]);

structure('Coinsurance, no deductible, with OOP Max', [
  {
    name: '20 %',
    plan: { coins: 20, oop: [600000, 500000] },
    cost: 20000,
    expect: {
      member_obligation: 4000,
      payer_obligation: 16000,
      remaining_sessions_before_oop_max: 125,
      coinsurance: 20,
      copayment: null,
    },
  },
  {
    name: 'odd cents round half up: 10 % of 123.45 $',
    plan: { coins: 10, oop: [600000, 500000] },
    cost: 12345,
    expect: {
      member_obligation: 1235,
      payer_obligation: 11110,
    },
  },
  { name: 'odd cents: 15 % of 123.45 $', plan: { coins: 15, oop: [600000, 500000] }, cost: 12345, expect: { member_obligation: 1852 } },
  { name: 'fractional percent 12.5 % of 0.03 $', plan: { coins: 12.5, oop: [600000, 500000] }, cost: 3, expect: { member_obligation: 0 } },
  { name: 'OOP nearly met', plan: { coins: 20, oop: [600000, 150] }, cost: 20000, expect: { member_obligation: 150, remaining_sessions_before_oop_max: 1 } },
  {
    name: 'family remaining smaller',
    plan: { coins: 20, oop: [600000, 500000], famOop: [1200000, 4100] },
    cost: 20000,
    expect: {
      remaining_oop_max: 4100,
      member_obligation: 4000,
      remaining_sessions_before_oop_max: 2,
    },
  },
]);

structure('Coinsurance, no deductible, no OOP Max', [
  { name: '30 % of 150.01 $ rounds down', plan: { coins: 30 }, cost: 15001, expect: { member_obligation: 4500, payer_obligation: 10501 } },
  { name: '30 % of 150.05 $ rounds half up', plan: { coins: 30 }, cost: 15005, expect: { member_obligation: 4502, payer_obligation: 10503 } },
  { name: 'copay 0 next to coinsurance', plan: { copay: 0, coins: 30 }, cost: 10000, expect: { member_obligation: 3000 } },
]);

structure('Copay and coinsurance, no deductible, with OOP Max', [
  {
    name: 'copay + 20 % of the rest',
    plan: { copay: 2000, coins: 20, oop: [400000, 300000] },
    cost: 20000,
    expect: {
      member_obligation: 5600,
      payer_obligation: 14400,
      remaining_sessions_before_oop_max: 54,
    },
  },
  {
    name: 'copay above session cost',
    plan: { copay: 2000, coins: 20, oop: [400000, 300000] },
    cost: 1500,
    expect: { member_obligation: 1500, payer_obligation: 0 },
  },
  { name: 'odd cents on the rest', plan: { copay: 2000, coins: 20, oop: [400000, 300000] }, cost: 2003, expect: { member_obligation: 2001 } },
  { name: 'OOP nearly met', plan: { copay: 2000, coins: 20, oop: [400000, 5000] }, cost: 20000, expect: { member_obligation: 5000, payer_obligation: 15000 } },
]);

structure('Coinsurance after deductible, with OOP Max', [
  {
    name: 'deductible unmet',
    plan: { coins: 20, ded: [150000, 100000], oop: [400000, 300000] },
    cost: 20000,
    expect: {
      member_obligation: 20000,
      payer_obligation: 0,
      pre_deductible_member_obligation: 20000,
      pre_deductible_payer_obligation: 0,
      post_deductible_member_obligation: 4000,
      post_deductible_payer_obligation: 16000,
      post_oop_max_member_obligation: 0,
      post_oop_max_payer_obligation: 20000,
      remaining_sessions_before_deductible: 5,
      remaining_sessions_before_oop_max: 55,
      deductible: 150000,
      remaining_deductible: 100000,
    },
  },
  {
    name: 'deductible partly met',
    plan: { coins: 20, ded: [150000, 5000], oop: [400000, 300000] },
    cost: 20000,
    expect: {
      member_obligation: 8000,
      payer_obligation: 12000,
      remaining_sessions_before_deductible: 1,
    },
  },
  {
    name: 'deductible met',
    plan: { coins: 20, ded: [150000, 0], oop: [400000, 300000] },
    cost: 20000,
    expect: {
      member_obligation: 4000,
      payer_obligation: 16000,
      remaining_sessions_before_deductible: 0,
      remaining_sessions_before_oop_max: 75,
    },
  },
  {
    name: 'OOP nearly met while the deductible is unmet',
    plan: { coins: 20, ded: [150000, 100000], oop: [400000, 700] },
    cost: 20000,
    expect: {
      member_obligation: 700,
      payer_obligation: 19300,
      remaining_sessions_before_oop_max: 1,
    },
  },
  {
    name: 'family deductible remaining smaller',
    plan: { coins: 20, ded: [150000, 100000], famDed: [300000, 3000], oop: [400000, 300000] },
    cost: 20000,
    expect: {
      remaining_deductible: 3000,
      family_deductible: 300000,
      family_remaining_deductible: 3000,
      member_obligation: 6400,
    },
  },
  {
    name: 'odd cents: 1 cent left, 15 % of 99.99 $',
    plan: { coins: 15, ded: [150000, 1], oop: [400000, 300000] },
    cost: 10000,
    expect: {
      member_obligation: 1501,
      payer_obligation: 8499,
    },
  },
]);

structure('Coinsurance after deductible, no OOP Max', [
  {
    name: 'deductible partly met',
    plan: { coins: 40, ded: [50000, 2500] },
    cost: 10000,
    expect: {
      member_obligation: 5500,
      payer_obligation: 4500,
      post_oop_max_member_obligation: null,
      remaining_sessions_before_oop_max: null,
      remaining_sessions_before_deductible: 1,
    },
  },
  {
    name: 'deductible unmet',
    plan: { coins: 40, ded: [50000, 50000] },
    cost: 10000,
    expect: { member_obligation: 10000, remaining_sessions_before_deductible: 5 },
  },
  { name: 'deductible met', plan: { coins: 40, ded: [50000, 0] }, cost: 10000, expect: { member_obligation: 4000 } },
]);

structure('Copay after deductible, with OOP Max', [
  {
    name: 'deductible unmet, 2.5 sessions of it left',
    plan: { copay: 2500, ded: [30000, 30000], oop: [40000, 40000] },
    cost: 12000,
    expect: {
      member_obligation: 12000,
      payer_obligation: 0,
      remaining_sessions_before_deductible: 3,
      remaining_sessions_before_oop_max: 6,
      pre_deductible_member_obligation: 12000,
      post_deductible_member_obligation: 2500,
    },
  },
  {
    name: 'deductible partly met',
    plan: { copay: 2500, ded: [30000, 6000], oop: [40000, 16000] },
    cost: 12000,
    expect: {
      member_obligation: 8500,
      payer_obligation: 3500,
      remaining_sessions_before_oop_max: 4,
    },
  },
  {
    name: 'deductible met',
    plan: { copay: 2500, ded: [30000, 0], oop: [40000, 10000] },
    cost: 12000,
    expect: {
      member_obligation: 2500,
      remaining_sessions_before_oop_max: 4,
    },
  },
  {
    name: 'OOP nearly met',
    plan: { copay: 2500, ded: [30000, 30000], oop: [40000, 5000] },
    cost: 12000,
    expect: {
      member_obligation: 5000,
      payer_obligation: 7000,
    },
  },
  {
    name: 'family OOP remaining smaller',
    plan: { copay: 2500, ded: [30000, 0], oop: [40000, 10000], famOop: [80000, 1200] },
    cost: 12000,
    expect: {
      remaining_oop_max: 1200,
      member_obligation: 1200,
    },
  },
]);

structure('Copay after deductible, no OOP Max', [
  {
    name: 'copay above what is left of the session',
    plan: { copay: 2000, ded: [50000, 1000] },
    cost: 1500,
    expect: {
      member_obligation: 1500,
      payer_obligation: 0,
    },
  },
  { name: 'deductible partly met', plan: { copay: 2000, ded: [50000, 1000] }, cost: 15000, expect: { member_obligation: 3000, payer_obligation: 12000 } },
  { name: 'deductible met', plan: { copay: 2000, ded: [50000, 0] }, cost: 15000, expect: { member_obligation: 2000, remaining_sessions_before_oop_max: null } },
]);

structure('Copay and coinsurance after deductible, with OOP Max', [
  {
    name: 'deductible partly met',
    plan: { copay: 1000, coins: 10, ded: [50000, 4000], oop: [300000, 200000] },
    cost: 20000,
    expect: {
      member_obligation: 6500,
      payer_obligation: 13500,
      post_deductible_member_obligation: 2900,
    },
  },
  {
    name: 'deductible met',
    plan: { copay: 1000, coins: 10, ded: [50000, 0], oop: [300000, 200000] },
    cost: 20000,
    expect: {
      member_obligation: 2900,
      payer_obligation: 17100,
    },
  },
  { name: 'deductible unmet', plan: { copay: 1000, coins: 10, ded: [50000, 50000], oop: [300000, 200000] }, cost: 20000, expect: { member_obligation: 20000 } },
]);

structure('Fully covered', [
  {
    name: 'copay 0, no coinsurance, with OOP max',
    plan: { copay: 0, oop: [100000, 100000] },
    cost: 20000,
    expect: {
      member_obligation: 0,
      payer_obligation: 20000,
      remaining_sessions_before_oop_max: null,
      post_oop_max_member_obligation: 0,
    },
  },
  { name: 'coinsurance 0, no OOP max', plan: { coins: 0 }, cost: 20000, expect: { member_obligation: 0, post_oop_max_member_obligation: null } },
]);

structure('Fully covered after deductible', [
  {
    name: 'deductible partly met',
    plan: { copay: 0, coins: 0, ded: [50000, 5000], oop: [100000, 100000] },
    cost: 20000,
    expect: {
      member_obligation: 5000,
      payer_obligation: 15000,
      pre_deductible_member_obligation: 20000,
      post_deductible_member_obligation: 0,
      remaining_sessions_before_deductible: 1,
      remaining_sessions_before_oop_max: null,
    },
  },
  { name: 'deductible met', plan: { copay: 0, ded: [50000, 0] }, cost: 20000, expect: { member_obligation: 0 } },
]);

test('the tables above cover all twelve benefit structures', () => {
  assert.deepEqual([...covered].sort(), [...BENEFIT_STRUCTURES].sort());
});

test('combinations the twelve do not name', () => {
  check('Coinsurance, no deductible, no OOP Max', [
    {
      name: 'copay + coinsurance, no OOP max',
      plan: { copay: 2000, coins: 20 },
      cost: 20000,
      expect: { member_obligation: 5600, copayment: 2000, coinsurance: 20 },
    },
  ]);
  check('Coinsurance after deductible, no OOP Max', [
    {
      name: 'copay + coinsurance after deductible, no OOP max',
      plan: { copay: 2000, coins: 20, ded: [1000, 0] },
      cost: 20000,
      expect: { member_obligation: 5600 },
    },
  ]);
  check('Copay, no deductible, no OOP Max', [
    {
      name: 'deductible flag without any deductible reported',
      plan: { copay: 2000, applies: true },
      cost: 20000,
      expect: {
        member_obligation: 2000,
        remaining_sessions_before_deductible: null,
      },
    },
  ]);
});

test('UNKNOWN_COSTSHARE: no copay or coinsurance reported; only values the known facts determine are filled', () => {
  check(null, [
    {
      name: 'deductible unmet',
      plan: { ded: [150000, 50000], oop: [300000, 200000] },
      cost: 20000,
      expect: {
        partial: 'UNKNOWN_COSTSHARE',
        member_obligation: 20000,
        payer_obligation: 0,
        pre_deductible_member_obligation: 20000,
        post_deductible_member_obligation: null,
        post_deductible_payer_obligation: null,
        post_oop_max_member_obligation: 0,
        remaining_deductible: 50000,
        remaining_sessions_before_deductible: 3,
        remaining_sessions_before_oop_max: null,
        copayment: null,
        coinsurance: null,
      },
    },
    {
      name: 'no deductible',
      plan: { oop: [300000, 200000] },
      cost: 20000,
      expect: {
        partial: 'UNKNOWN_COSTSHARE',
        member_obligation: null,
        payer_obligation: null,
        pre_deductible_member_obligation: null,
      },
    },
    {
      name: 'OOP met',
      plan: { oop: [300000, 0] },
      cost: 20000,
      expect: { partial: 'UNKNOWN_COSTSHARE', member_obligation: 0, remaining_sessions_before_oop_max: 0 },
    },
  ]);
  const out = estimate(coverage(null), { session_cost: 20000, in_network: true });
  assert.equal(out.partial, 'UNKNOWN_COSTSHARE');
  assert.equal(out.fields.member_obligation, null);
  assert.equal(out.fields.post_oop_max_member_obligation, null);
  assert.equal(out.fields.benefit_structure, null);
});

test('UNKNOWN_REMAININGS: unknown remainings stay null, never 0', () => {
  check('Coinsurance after deductible, with OOP Max', [
    {
      name: 'deductible total known, remaining not',
      plan: { coins: 20, ded: [150000, null], oop: [300000, 200000] },
      cost: 20000,
      expect: {
        partial: 'UNKNOWN_REMAININGS',
        deductible: 150000,
        remaining_deductible: null,
        member_obligation: null,
        payer_obligation: null,
        pre_deductible_member_obligation: 20000,
        post_deductible_member_obligation: 4000,
        remaining_sessions_before_deductible: null,
        remaining_sessions_before_oop_max: null,
      },
    },
    {
      name: 'missing totals',
      plan: { coins: 20, ded: [null, null], oop: [null, null] },
      cost: 20000,
      expect: {
        partial: 'UNKNOWN_REMAININGS',
        deductible: null,
        remaining_deductible: null,
        oop_max: null,
        remaining_oop_max: null,
        member_obligation: null,
      },
    },
    {
      name: 'family total known, remaining not: the individual remaining does not bind alone',
      plan: { coins: 20, ded: [150000, 9000], famDed: [300000, null], oop: [300000, 200000] },
      cost: 20000,
      expect: {
        partial: 'UNKNOWN_REMAININGS',
        remaining_deductible: null,
      },
    },
    {
      name: 'a known 0 binds even next to an unknown family remaining',
      plan: { coins: 20, ded: [150000, 0], famDed: [300000, null], oop: [300000, 200000] },
      cost: 20000,
      expect: {
        partial: null,
        remaining_deductible: 0,
        member_obligation: 4000,
      },
    },
  ]);
  check('Copay, no deductible, with OOP Max', [
    {
      name: 'OOP remaining unknown',
      plan: { copay: 3000, oop: [300000, null] },
      cost: 20000,
      expect: {
        partial: 'UNKNOWN_REMAININGS',
        remaining_oop_max: null,
        member_obligation: null,
        post_deductible_member_obligation: 3000,
      },
    },
  ]);
  check('Copay, no deductible, no OOP Max', [
    {
      name: 'waived deductible with unknown remaining is not partial',
      plan: { copay: 3000, ded: [100000, null], applies: false },
      cost: 20000,
      expect: {
        partial: null,
        remaining_deductible: null,
        member_obligation: 3000,
      },
    },
  ]);
});

test('without a session cost: obligations and session counts null, benefits returned', () => {
  const b = plan({ coins: 20, ded: [150000, 100000], oop: [400000, 300000], visits: 12 });
  const { fields, partial } = estimate(coverage(b), { session_cost: null, in_network: true });
  assert.equal(partial, null);
  assert.equal(fields.benefit_structure, 'Coinsurance after deductible, with OOP Max');
  assert.equal(fields.remaining_deductible, 100000);
  assert.equal(fields.visits_remaining, 12);
  for (const k of [
    'member_obligation',
    'payer_obligation',
    'pre_deductible_member_obligation',
    'post_deductible_payer_obligation',
    'post_oop_max_member_obligation',
    'remaining_sessions_before_deductible',
    'remaining_sessions_before_oop_max',
    'provider_session_cost',
  ] as const) {
    assert.equal(fields[k], null, k);
  }
});

test('in_network selects the network; out-of-network benefits differ', () => {
  const cov = coverage(plan({ copay: 2000, oop: [300000, 300000] }), {
    out_of_network: plan({ coins: 40, ded: [500000, 500000], oop: [1000000, 1000000] }),
  });
  const inNet = estimate(cov, { session_cost: 20000, in_network: true });
  const outNet = estimate(cov, { session_cost: 20000, in_network: false });
  assert.equal(inNet.fields.member_obligation, 2000);
  assert.equal(inNet.fields.in_network, true);
  assert.equal(outNet.fields.member_obligation, 20000);
  assert.equal(outNet.fields.benefit_structure, 'Coinsurance after deductible, with OOP Max');
  assert.equal(outNet.fields.in_network, false);
  const noOut = estimate(coverage(plan({ copay: 2000 })), { session_cost: 20000, in_network: false });
  assert.equal(noOut.partial, 'UNKNOWN_COSTSHARE');
});

test('telehealth uses its own cost share with the same deductible and OOP accumulators', () => {
  const b = plan({ copay: 3000, ded: [100000, 5000], oop: [300000, 200000] });
  const cov = coverage(b, { telehealth: { in_network: { copayment: 1000, coinsurance: null }, out_of_network: null } });
  const { fields } = estimate(cov, { session_cost: 20000, in_network: true });
  assert.equal(fields.member_obligation, 8000);
  assert.deepEqual(fields.telehealth, {
    copayment: 1000,
    coinsurance: null,
    benefit_structure: 'Copay after deductible, with OOP Max',
    member_obligation: 6000,
  });
  assert.equal(estimate(cov, { session_cost: 20000, in_network: false }).fields.telehealth, null);
  assert.equal(estimate(coverage(b), { session_cost: 20000, in_network: true }).fields.telehealth, null);
  const free = coverage(plan({ copay: 3000, oop: [300000, 200000] }), { telehealth: { in_network: { copayment: 0, coinsurance: 0 }, out_of_network: null } });
  assert.deepEqual(estimate(free, { session_cost: 20000, in_network: true }).fields.telehealth, {
    copayment: 0,
    coinsurance: 0,
    benefit_structure: 'Fully covered',
    member_obligation: 0,
  });
  assert.equal(estimate(free, { session_cost: null, in_network: true }).fields.telehealth?.member_obligation, null);
});

test('visits_remaining comes from the visit limit', () => {
  assert.equal(estimate(coverage(plan({ copay: 100, visits: 7 })), { session_cost: 1, in_network: true }).fields.visits_remaining, 7);
  assert.equal(estimate(coverage(plan({ copay: 100, visits: null })), { session_cost: 1, in_network: true }).fields.visits_remaining, null);
  assert.equal(estimate(coverage(plan({ copay: 100 })), { session_cost: 1, in_network: true }).fields.visits_remaining, null);
});

test('a zero session cost costs nobody anything; sessions toward unmet amounts are never reached', () => {
  const { fields } = estimate(coverage(plan({ copay: 2000, ded: [1000, 500], oop: [5000, 5000] })), { session_cost: 0, in_network: true });
  assert.equal(fields.member_obligation, 0);
  assert.equal(fields.payer_obligation, 0);
  assert.equal(fields.remaining_sessions_before_deductible, null);
  assert.equal(fields.remaining_sessions_before_oop_max, null);
});

test('session costs that are not non-negative integer cents are rejected', () => {
  const cov = coverage(plan({ copay: 2000 }));
  for (const bad of [-1, 10.5, Number.NaN, Number.POSITIVE_INFINITY]) {
    assert.throws(() => estimate(cov, { session_cost: bad, in_network: true }), RangeError);
  }
});

test('inactive coverage: the member owes the whole session, no copay shown beside INACTIVE (issue 21), accumulators still reported', () => {
  const b = plan({ copay: 3000, oop: [400000, 300000] });
  const { fields, partial } = estimate({ ...coverage(b), coverage_status: 'inactive' }, { session_cost: 15000, in_network: true });
  assert.equal(partial, null);
  assert.equal(fields.member_obligation, 15000);
  assert.equal(fields.payer_obligation, 0);
  assert.equal(fields.copayment, null);
  assert.equal(fields.benefit_structure, null);
  assert.equal(fields.oop_max, 400000);
  assert.equal(fields.remaining_sessions_before_oop_max, null);
});

test('a plan not in force on the date of service (begins after it, or its eligibility ended) costs the whole session', () => {
  const b = plan({ copay: 3000 });
  const base = coverage(b, { plan_begin_date: '2026-01-01', plan_end_date: '2026-12-31' });
  const cases = [
    { ...base, plan_begin_date: '2026-07-01' },
    { ...base, eligibility_end_date: '2026-05-31' },
    { ...base, plan_end_date: '2026-05-31' },
  ];
  for (const c of cases) {
    const { fields } = estimate(c, { session_cost: 15000, in_network: true, date_of_service: '2026-06-15' });
    assert.equal(fields.member_obligation, 15000);
    assert.equal(fields.copayment, null);
    // The same plan on a date it covers prices the copay.
    const covered = estimate(c, { session_cost: 15000, in_network: true, date_of_service: '2026-05-01' }).fields.member_obligation;
    assert.equal(covered, c.plan_begin_date === '2026-07-01' ? 15000 : 3000);
  }
});

test("after the plan year ends, only the next plan year's benefits price a visit: this year's never do", () => {
  const thisYear = plan({ copay: 3000, oop: [300000, 0] });
  const nextYear = plan({ copay: 4000 });
  const next = { begin_date: '2027-01-01', member_id: null, in_network: { copayment: 4000, coinsurance: null, deductible: null, oop_max: null } };
  const base = { plan_begin_date: '2026-01-01', plan_end_date: '2026-12-31', next_plan_year: next };
  const price = (c: Coverage, date_of_service: string) => estimate(c, { session_cost: 15000, in_network: true, date_of_service });
  // Read for a visit in 2027: that year's benefits, this year's beside them for the reset rules.
  const readForNextYear = coverage(nextYear, { ...base, this_plan_year_in_network: thisYear });
  assert.equal(price(readForNextYear, '2027-01-05').fields.member_obligation, 4000);
  // This year's benefits (met OOP: $0) asked about a 2027 visit: unknown, never this year's price.
  const thisYearOnly = coverage(thisYear, base);
  const late = price(thisYearOnly, '2027-01-05');
  assert.equal(late.partial, 'UNKNOWN_COSTSHARE');
  assert.equal(late.fields.member_obligation, null);
  assert.equal(late.fields.copayment, null);
  // The last day of the plan year is still this year's.
  assert.equal(price(thisYearOnly, '2026-12-31').fields.member_obligation, 0);
  // No next plan year reported: the plan is not in force after its end (the whole session).
  assert.equal(price(coverage(thisYear, { ...base, next_plan_year: null }), '2027-01-05').fields.member_obligation, 15000);
});

test('behavioral health inactive (EB*6 on MH) costs the whole session whatever the medical copay', () => {
  const { fields } = estimate({ ...coverage(plan({ copay: 3000 })), mental_health_coverage: 'inactive' }, { session_cost: 15000, in_network: true });
  assert.equal(fields.member_obligation, 15000);
  assert.equal(fields.copayment, null);
});

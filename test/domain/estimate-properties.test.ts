/** Properties of the estimate engine over random plans and session costs (fast-check). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Accumulator, Coverage, CostShare, NetworkBenefits } from '../../src/domain/coverage.ts';
import { BENEFIT_STRUCTURES, type EstimateFinancials } from '../../src/domain/schemas/responses.ts';
import { classifyBenefitStructure, deductibleApplies, estimate, memberObligation, planFacts, type EstimateOutcome } from '../../src/domain/estimate/index.ts';

const money = fc.integer({ min: 0, max: 1_000_000 });
const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null, freq: 4 });
const coinsurance = fc.oneof(
  fc.integer({ min: 0, max: 100 }),
  fc.integer({ min: 0, max: 1000 }).map((x) => x / 10),
  fc.double({ min: 0, max: 100, noNaN: true }),
);
const accumulator: fc.Arbitrary<Accumulator> = fc.record({ total: nullable(money), remaining: nullable(money) });
const pair = fc.record({ individual: accumulator, family: accumulator });
const costShare: fc.Arbitrary<CostShare> = fc.record({ copayment: nullable(fc.integer({ min: 0, max: 50_000 })), coinsurance: nullable(coinsurance) });

const benefits: fc.Arbitrary<NetworkBenefits> = fc.record({
  copayment: nullable(fc.integer({ min: 0, max: 50_000 })),
  coinsurance: nullable(coinsurance),
  deductible_applies: fc.boolean(),
  deductible: nullable(pair),
  oop_max: nullable(pair),
  visit_limit: nullable(fc.record({ total: nullable(fc.nat(60)), remaining: nullable(fc.nat(60)) })),
});
const cost = fc.integer({ min: 0, max: 2_000_000 });

function coverage(inNet: NetworkBenefits | null, telehealth: CostShare | null = null): Coverage {
  const person = { first_name: 'A', last_name: 'B', member_id: '1MHNA', gender: 'U' as const, dob: '1990-01-01', address: null };
  return {
    payer_id: 'P',
    payer_name: 'P',
    plan_name: null,
    plan_type: null,
    insurance_type: 'commercial',
    group_name: null,
    group_id: null,
    plan_begin_date: null,
    plan_end_date: null,
    eligibility_end_date: null,
    coverage_status: 'active',
    mental_health_coverage: 'active',
    in_network: inNet,
    out_of_network: null,
    telehealth: telehealth ? { in_network: telehealth, out_of_network: null } : null,
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
  };
}

const run = (b: NetworkBenefits | null, C: number | null, th: CostShare | null = null): EstimateOutcome =>
  estimate(coverage(b, th), { session_cost: C, in_network: true });

const MONEY_FIELDS = [
  'provider_session_cost',
  'copayment',
  'deductible',
  'remaining_deductible',
  'oop_max',
  'remaining_oop_max',
  'family_deductible',
  'family_remaining_deductible',
  'family_oop_max',
  'family_remaining_oop_max',
  'member_obligation',
  'payer_obligation',
  'pre_deductible_member_obligation',
  'pre_deductible_payer_obligation',
  'post_deductible_member_obligation',
  'post_deductible_payer_obligation',
  'post_oop_max_member_obligation',
  'post_oop_max_payer_obligation',
  'remaining_sessions_before_deductible',
  'remaining_sessions_before_oop_max',
  'visits_remaining',
] as const satisfies readonly (keyof EstimateFinancials)[];

const SPLITS = [
  ['member_obligation', 'payer_obligation'],
  ['pre_deductible_member_obligation', 'pre_deductible_payer_obligation'],
  ['post_deductible_member_obligation', 'post_deductible_payer_obligation'],
  ['post_oop_max_member_obligation', 'post_oop_max_payer_obligation'],
] as const;

/** Any plan whose remaining OOP binds at `remaining` (both levels reported with that remaining). */
const withOop = (b: NetworkBenefits, remaining: number): NetworkBenefits => ({
  ...b,
  oop_max: { individual: { total: remaining + 1000, remaining }, family: { total: null, remaining: null } },
});

test('every plan classifies into exactly one of the twelve structures, or null when the cost share is unknown', () => {
  fc.assert(
    fc.property(benefits, (b) => {
      const s = classifyBenefitStructure(b);
      if (b.copayment === null && b.coinsurance === null) return assert.equal(s, null);
      assert.ok(s !== null && BENEFIT_STRUCTURES.includes(s), String(s));
      assert.equal(s.includes('after deductible'), deductibleApplies(b), s);
      const copay = (b.copayment ?? 0) > 0;
      const coins = (b.coinsurance ?? 0) > 0;
      assert.equal(s.startsWith('Fully covered'), !copay && !coins, s);
      if (!s.startsWith('Fully covered')) assert.equal(s.includes('with OOP Max'), b.oop_max !== null, s);
      if (coins) assert.ok(s.includes('oinsurance'), s);
      if (copay && (!coins || b.oop_max !== null)) assert.ok(s.startsWith('Copay'), s);
    }),
    { numRuns: 1000 },
  );
});

test('splits add up to the cost, stay within 0..cost and within the remaining OOP; amounts are integers or null', () => {
  fc.assert(
    fc.property(nullable(benefits), cost, nullable(costShare), (b, C, th) => {
      const { fields: f } = run(b, C, th);
      for (const k of MONEY_FIELDS) {
        const v = f[k];
        assert.ok(v === null || Number.isInteger(v), `${k} = ${v}`);
      }
      for (const [m, p] of SPLITS) {
        const member = f[m];
        const payer = f[p];
        assert.equal(member === null, payer === null, `${m}/${p} both known or both unknown`);
        if (member === null || payer === null) continue;
        assert.equal(member + payer, C);
        assert.ok(member >= 0 && member <= C, `${m} = ${member} for cost ${C}`);
      }
      // A session past the visit limit is not a covered service: its cost does not stop at the OOP max (docs/estimates.md section 4).
      const capped = b?.visit_limit?.remaining !== 0;
      if (capped && f.remaining_oop_max !== null && f.member_obligation !== null) assert.ok(f.member_obligation <= f.remaining_oop_max);
      const t = f.telehealth?.member_obligation ?? null;
      if (t !== null) {
        assert.ok(Number.isInteger(t) && t >= 0 && t <= C);
        if (capped && f.remaining_oop_max !== null) assert.ok(t <= f.remaining_oop_max);
      }
    }),
    { numRuns: 2000 },
  );
});

test('remaining OOP 0: the member pays nothing, in person or by telehealth, even with an unknown cost share (visits left)', () => {
  fc.assert(
    fc.property(
      benefits.filter((b) => b.visit_limit?.remaining !== 0),
      cost,
      nullable(costShare),
      (b, C, th) => {
        const { fields: f } = run(withOop(b, 0), C, th);
        assert.equal(f.member_obligation, 0);
        assert.equal(f.payer_obligation, C);
        assert.equal(f.remaining_sessions_before_oop_max, 0);
        if (th) assert.equal(f.telehealth?.member_obligation, 0);
      },
    ),
  );
});

test('no visits left, or the service not covered: the member pays the whole session whatever the OOP max', () => {
  fc.assert(
    fc.property(benefits, cost, fc.boolean(), (b, C, exhausted) => {
      const plan: NetworkBenefits = exhausted ? { ...b, visit_limit: { total: b.visit_limit?.total ?? null, remaining: 0 } } : { ...b, not_covered: true };
      const { fields: f, partial } = run(withOop(plan, 0), C);
      assert.equal(f.member_obligation, C);
      assert.equal(f.payer_obligation, 0);
      assert.equal(partial, null);
    }),
  );
});

test('the member pays no less for a dearer session', () => {
  fc.assert(
    fc.property(benefits, cost, cost, nullable(costShare), (b, x, y, th) => {
      const [lo, hi] = x <= y ? [x, y] : [y, x];
      const a = run(b, lo, th).fields;
      const z = run(b, hi, th).fields;
      if (a.member_obligation !== null && z.member_obligation !== null) assert.ok(a.member_obligation <= z.member_obligation);
      const ta = a.telehealth?.member_obligation ?? null;
      const tz = z.telehealth?.member_obligation ?? null;
      if (ta !== null && tz !== null) assert.ok(ta <= tz);
    }),
    { numRuns: 1000 },
  );
});

test('the member pays no less with more deductible left', () => {
  fc.assert(
    fc.property(benefits, cost, money, money, nullable(costShare), (b, C, x, y, th) => {
      const [lo, hi] = x <= y ? [x, y] : [y, x];
      const at = (d: number): NetworkBenefits => ({
        ...b,
        deductible_applies: true,
        deductible: { individual: { total: 1_000_000, remaining: d }, family: { total: null, remaining: null } },
      });
      const a = run(at(lo), C, th).fields;
      const z = run(at(hi), C, th).fields;
      if (a.member_obligation !== null && z.member_obligation !== null) assert.ok(a.member_obligation <= z.member_obligation);
      const ta = a.telehealth?.member_obligation ?? null;
      const tz = z.telehealth?.member_obligation ?? null;
      if (ta !== null && tz !== null) assert.ok(ta <= tz);
    }),
    { numRuns: 1000 },
  );
});

/** Fill every unknown the partial result depends on with arbitrary values. */
function completions(b: NetworkBenefits | null): fc.Arbitrary<NetworkBenefits> {
  if (b === null) return benefits.map((x) => ({ ...x, copayment: x.copayment ?? 0 }));
  // What remains of a known total is at most the total (a total of 0 leaves 0: docs/estimates.md section 3).
  const upTo = (total: number | null) => (total === null ? money : fc.integer({ min: 0, max: Math.max(0, total) }));
  const level = (a: Accumulator): fc.Arbitrary<Accumulator> =>
    a.remaining === null && a.total !== null ? upTo(a.total).map((r) => ({ ...a, remaining: r })) : fc.constant(a);
  const fill = (p: NetworkBenefits['deductible']) =>
    p === null
      ? fc.constant(null)
      : fc
          .record({ individual: level(p.individual), family: level(p.family) })
          .chain((q) =>
            q.individual.remaining === null && q.family.remaining === null
              ? upTo(q.individual.total).map((r) => ({ ...q, individual: { ...q.individual, remaining: r } }))
              : fc.constant(q),
          );
  const share =
    b.copayment === null && b.coinsurance === null
      ? fc.record({ copayment: fc.integer({ min: 0, max: 50_000 }), coinsurance: coinsurance })
      : fc.constant({ copayment: b.copayment, coinsurance: b.coinsurance });
  return fc.record({ d: fill(b.deductible), o: fill(b.oop_max), s: share }).map(({ d, o, s }) => ({ ...b, ...s, deductible: d, oop_max: o }));
}

const DERIVED = [
  'member_obligation',
  'payer_obligation',
  'pre_deductible_member_obligation',
  'post_deductible_member_obligation',
  'post_oop_max_member_obligation',
  'remaining_sessions_before_deductible',
  'remaining_sessions_before_oop_max',
  'remaining_deductible',
  'remaining_oop_max',
] as const;

test('partial results never fill an unknown: every reported value holds for every completion of the unknowns', () => {
  const partialPlan = nullable(benefits).chain((b) => completions(b).map((full) => [b, full] as const));
  fc.assert(
    fc.property(partialPlan, cost, (pair, C) => {
      const [b, full] = pair;
      const part = run(b, C);
      const done = run(full, C);
      for (const k of DERIVED) {
        const v = part.fields[k];
        if (v !== null) assert.equal(done.fields[k], v, `${k}: partial says ${v}, completed plan says ${done.fields[k]}`);
      }
      if (part.partial === 'UNKNOWN_COSTSHARE') {
        assert.equal(part.fields.benefit_structure, null);
        assert.equal(part.fields.post_deductible_member_obligation === null, C !== 0);
      }
      if (part.partial === 'UNKNOWN_REMAININGS') {
        const f = part.fields;
        assert.ok((b?.deductible_applies && f.remaining_deductible === null) || (b?.oop_max && f.remaining_oop_max === null));
      }
      if (part.partial === null) assert.equal(done.partial, null);
    }),
    { numRuns: 2000 },
  );
});

test('closed-form session counts agree with paying session after session', () => {
  const small = fc.record({
    copayment: nullable(fc.integer({ min: 0, max: 20_000 })),
    coinsurance: nullable(fc.integer({ min: 0, max: 100 })),
    deductible_applies: fc.boolean(),
    deductible: fc.record({
      individual: fc.record({ total: fc.constant(100_000), remaining: fc.integer({ min: 0, max: 100_000 }) }),
      family: fc.constant({ total: null, remaining: null }),
    }),
    oop_max: fc.record({
      individual: fc.record({ total: fc.constant(200_000), remaining: fc.integer({ min: 0, max: 200_000 }) }),
      family: fc.constant({ total: null, remaining: null }),
    }),
    visit_limit: fc.constant(null),
  });
  // Besides random OOP remainings, pick the edges: met exactly by full-cost sessions, at the deductible, just past it.
  const edge = fc.constantFrom('random', 'full-cost sessions', 'deductible', 'deductible + 1');
  fc.assert(
    fc.property(small, fc.integer({ min: 1, max: 60_000 }), edge, (plan, C, where) => {
      fc.pre(plan.copayment !== null || plan.coinsurance !== null);
      const D0 = plan.deductible.individual.remaining;
      const O0 = { random: plan.oop_max.individual.remaining, 'full-cost sessions': Math.floor(D0 / C) * C, deductible: D0, 'deductible + 1': D0 + 1 }[where];
      const b = { ...plan, oop_max: { ...plan.oop_max, individual: { total: 300_000, remaining: O0 } } };
      const f = run(b, C).fields;
      const facts = planFacts(b, b);
      let D = facts.deductibleRemaining ?? 0;
      let O = facts.oopRemaining ?? 0;
      let toDeductible: number | null = facts.afterDeductible ? (D === 0 ? 0 : null) : null;
      let toOop: number | null = O === 0 ? 0 : null;
      for (let n = 1; n <= 5000 && toOop === null; n++) {
        const m = memberObligation({ ...facts, deductibleRemaining: D, oopRemaining: O }, C);
        assert.notEqual(m, null);
        if (n === 1) assert.equal(m, f.member_obligation);
        O -= m ?? 0;
        if (facts.afterDeductible) D = Math.max(0, D - C);
        if (toDeductible === null && facts.afterDeductible && D === 0) toDeductible = n;
        if (O === 0) toOop = n;
      }
      if (facts.afterDeductible) assert.equal(f.remaining_sessions_before_deductible, toDeductible ?? Math.ceil((facts.deductibleRemaining ?? 0) / C));
      else assert.equal(f.remaining_sessions_before_deductible, null);
      if (toOop !== null) assert.equal(f.remaining_sessions_before_oop_max, toOop);
      else assert.ok(f.remaining_sessions_before_oop_max === null || f.remaining_sessions_before_oop_max > 5000);
    }),
    { numRuns: 500 },
  );
});

test('a dollar maximum on what the payer pays (payer_cap): the payer never pays more than it, the member never less than without it', () => {
  fc.assert(
    fc.property(benefits, cost, nullable(fc.integer({ min: 0, max: 300_000 })), (b, C, cap) => {
      const free = run(b, C);
      const out = run({ ...b, payer_cap: cap }, C);
      const m = out.fields.member_obligation;
      const p = out.fields.payer_obligation;
      if (m === null) {
        // Unknown only where it was already, or where an unknown cap may bind (the payer would pay something).
        assert.ok(free.fields.member_obligation === null || (cap === null && free.fields.payer_obligation !== 0));
        assert.notEqual(out.partial, null);
        return;
      }
      assert.equal(m + p!, C);
      if (cap !== null) assert.ok(p! <= cap, `payer ${p} above the cap ${cap}`);
      if (free.fields.member_obligation !== null) assert.ok(m >= free.fields.member_obligation);
    }),
    { numRuns: 400 },
  );
});

test('"whichever is greater / less" (combine): never more than both stacked, the lesser never above the greater', () => {
  fc.assert(
    fc.property(benefits, cost, fc.integer({ min: 0, max: 50_000 }), coinsurance, (b, C, copay, coins) => {
      const both = { ...b, copayment: copay, coinsurance: coins };
      const stacked = run(both, C).fields.member_obligation;
      const greater = run({ ...both, combine: 'greater' }, C).fields.member_obligation;
      const lesser = run({ ...both, combine: 'lesser' }, C).fields.member_obligation;
      if (stacked === null || greater === null || lesser === null) return;
      assert.ok(lesser <= greater && greater <= stacked, `lesser ${lesser}, greater ${greater}, stacked ${stacked}`);
    }),
    { numRuns: 300 },
  );
});

/** Assembles the estimate's financial fields (EstimateFinancials) from normalized coverage. */
import type { Cents, CostShare, Coverage, IsoDate, NetworkBenefits } from '../coverage.ts';
import type { EstimateFinancials } from '../schemas/responses.ts';
import { inForce } from '../plan-rules.ts';
import { accumulatorFields, bindingRemaining } from './accumulators.ts';
import { classifyBenefitStructure, deductibleApplies } from './benefit-structure.ts';
import { memberObligation, phaseSplits, split, toCostShareRule, type PlanFacts } from './obligation.ts';
import { sessionsBeforeDeductible, sessionsBeforeOopMax } from './sessions.ts';

export interface EstimateInput {
  /** Allowed amount for one session, integer cents; null when the caller sent no provider_session_cost. */
  session_cost: Cents | null;
  /** Selects coverage.in_network or coverage.out_of_network. */
  in_network: boolean;
  /** The encounter's date of service: a plan not in force on it costs the member the whole session; absent: not checked. */
  date_of_service?: IsoDate;
}

export type EstimatePartial = 'UNKNOWN_COSTSHARE' | 'UNKNOWN_REMAININGS';

export interface EstimateOutcome {
  fields: EstimateFinancials;
  /** The 206 error code, or null for a complete (200) estimate. */
  partial: EstimatePartial | null;
}

/** What the selected network's benefits say, with the cost share taken from `share` (the network's own, or telehealth's). */
export function planFacts(benefits: NetworkBenefits | null, share: CostShare | null): PlanFacts {
  const rule = share ? toCostShareRule(share) : null;
  if (!benefits) return { rule, afterDeductible: null, deductibleRemaining: null, hasOopMax: null, oopRemaining: null };
  const afterDeductible = deductibleApplies(benefits);
  return {
    rule,
    afterDeductible,
    deductibleRemaining: benefits.deductible ? bindingRemaining(benefits.deductible) : null,
    hasOopMax: benefits.oop_max !== null,
    oopRemaining: benefits.oop_max ? bindingRemaining(benefits.oop_max) : null,
  };
}

function partialOf(benefits: NetworkBenefits | null, f: PlanFacts): EstimatePartial | null {
  if (!benefits || f.rule === null) return 'UNKNOWN_COSTSHARE';
  if ((f.afterDeductible === true && f.deductibleRemaining === null) || (f.hasOopMax === true && f.oopRemaining === null)) {
    return 'UNKNOWN_REMAININGS';
  }
  return null;
}

function telehealthFields(benefits: NetworkBenefits | null, share: CostShare, C: Cents | null): EstimateFinancials['telehealth'] {
  return {
    copayment: share.copayment,
    coinsurance: share.coinsurance,
    // The deductible and OOP max are the selected network's; without them the structure is unknown.
    benefit_structure: benefits ? classifyBenefitStructure({ ...benefits, copayment: share.copayment, coinsurance: share.coinsurance }) : null,
    member_obligation: C === null ? null : memberObligation(planFacts(benefits, share), C),
  };
}

/**
 * The member pays the whole session when the plan is inactive, when the payer reports the service
 * not covered (EB01 I), or when the plan-year visit limit has no visits left.
 */
export function paysWholeSession(coverage: Coverage, benefits: NetworkBenefits | null, dateOfService: IsoDate | null = null): boolean {
  return gateOf(coverage, benefits, dateOfService) !== null;
}

export type Gate = 'inactive' | 'not_in_force' | 'behavioral_health_inactive' | 'not_covered' | 'visit_limit';

/**
 * The gate that closes before any arithmetic (docs/estimates.md section 4, "Gates"), or null: the
 * plan inactive, or not in force on the date of service (it begins after it, or its plan or
 * eligibility ends before it), behavioral health inactive (an EB*6 on the mental-health service
 * types: a medical office copay never prices it), the service not covered (EB01 I, Part B not in
 * force, an unmet spend-down), or no visits left of the visit limit.
 */
export function gateOf(coverage: Coverage, benefits: NetworkBenefits | null, dos: IsoDate | null): Gate | null {
  if (coverage.coverage_status === 'inactive') return 'inactive';
  if (dos !== null && !inForce(coverage, dos)) return 'not_in_force';
  if (coverage.mental_health_coverage === 'inactive') return 'behavioral_health_inactive';
  if (benefits?.not_covered === true) return 'not_covered';
  if (benefits?.visit_limit?.remaining === 0) return 'visit_limit';
  return null;
}

/**
 * The date of service is after the plan year's end, yet the coverage's benefits are still this year's:
 * a 271 read for a visit in the next plan year holds that year's benefits and this year's in-network
 * ones beside them (this_plan_year_in_network); without them this year's never price it (docs/estimates.md 1.1).
 */
function thisYearsPastItsEnd(c: Coverage, dos: IsoDate): boolean {
  return c.plan_end_date !== null && c.plan_end_date < dos && c.this_plan_year_in_network === undefined;
}

/** The selected network's benefits that price a visit on `dos` (null: unknown); absent date: the coverage's. */
export function benefitsFor(coverage: Coverage, inNetwork: boolean, dos: IsoDate | null): NetworkBenefits | null {
  if (dos !== null && thisYearsPastItsEnd(coverage, dos)) return null;
  return inNetwork ? coverage.in_network : coverage.out_of_network;
}

/** QMB: insurance_type qmb, or a QMB member of a Medicare Advantage plan. */
export function isQmb(coverage: Coverage): boolean {
  return coverage.insurance_type === 'qmb' || coverage.qmb === true;
}

/**
 * The estimate for one session: benefits of the selected network, the member/payer split now and
 * in each phase of the plan year, and the sessions left before the deductible and OOP max are met.
 * Throws RangeError for a session cost that is not a non-negative safe integer (cents).
 */
export function estimate(coverage: Coverage, input: EstimateInput): EstimateOutcome {
  const C = input.session_cost;
  if (C !== null && !(Number.isSafeInteger(C) && C >= 0)) {
    throw new RangeError(`session_cost must be a non-negative integer number of cents, got ${C}`);
  }
  const network = input.in_network ? 'in_network' : 'out_of_network';
  const dos = input.date_of_service ?? null;
  const benefits = benefitsFor(coverage, input.in_network, dos);
  const f = planFacts(benefits, benefits);
  const telehealthShare = dos !== null && thisYearsPastItsEnd(coverage, dos) ? null : (coverage.telehealth?.[network] ?? null);

  const now = C === null ? split(null, 0) : split(memberObligation(f, C), C);
  const phases = C === null ? null : phaseSplits(f, C);

  const fields: EstimateFinancials = {
    in_network: input.in_network,
    provider_session_cost: C,
    benefit_structure: benefits ? classifyBenefitStructure(benefits) : null,
    copayment: benefits?.copayment ?? null,
    coinsurance: benefits?.coinsurance ?? null,
    ...accumulatorFields(benefits),
    member_obligation: now.member,
    payer_obligation: now.payer,
    pre_deductible_member_obligation: phases?.preDeductible.member ?? null,
    pre_deductible_payer_obligation: phases?.preDeductible.payer ?? null,
    post_deductible_member_obligation: phases?.postDeductible.member ?? null,
    post_deductible_payer_obligation: phases?.postDeductible.payer ?? null,
    post_oop_max_member_obligation: phases?.postOopMax.member ?? null,
    post_oop_max_payer_obligation: phases?.postOopMax.payer ?? null,
    remaining_sessions_before_deductible: C === null ? null : sessionsBeforeDeductible(f, C),
    remaining_sessions_before_oop_max: C === null ? null : sessionsBeforeOopMax(f, C),
    telehealth: telehealthShare ? telehealthFields(benefits, telehealthShare, C) : null,
    visits_remaining: benefits?.visit_limit?.remaining ?? null,
    prior_authorization_required: benefits?.prior_authorization_required ?? null,
  };
  const gate = gateOf(coverage, benefits, dos);
  if (gate !== null) {
    // Past the visit limit the plan's copay still is the plan's; a plan not in force shows none.
    const noShare = gate === 'inactive' || gate === 'not_in_force' || gate === 'behavioral_health_inactive';
    // No coverage for this session (inactive plan, service not covered, visit limit used up): the member owes the whole
    // session, and no copay or coinsurance is shown beside it (docs/estimates.md section 4).
    return {
      fields: {
        ...fields,
        ...(noShare ? { benefit_structure: null, copayment: null, coinsurance: null } : {}),
        member_obligation: C,
        payer_obligation: C === null ? null : 0,
        // The session is not covered in any phase of the plan year: the deductible and OOP max count covered services only.
        pre_deductible_member_obligation: C,
        pre_deductible_payer_obligation: C === null ? null : 0,
        post_deductible_member_obligation: C,
        post_deductible_payer_obligation: C === null ? null : 0,
        post_oop_max_member_obligation: fields.post_oop_max_member_obligation === null ? null : C,
        post_oop_max_payer_obligation: fields.post_oop_max_member_obligation === null || C === null ? null : 0,
        remaining_sessions_before_deductible: null,
        remaining_sessions_before_oop_max: null,
        telehealth: fields.telehealth ? { ...fields.telehealth, member_obligation: C } : null,
      },
      partial: null,
    };
  }
  if (coverage.coverage_status === 'unknown' || benefits?.status_unknown === true) {
    // No status row for the plan or for mental health (docs/estimates.md 1.1): covered or not is unknown, so what
    // the member owes is too (the whole session if not, the cost share if so); the payer's stated figures stay.
    return {
      fields: {
        ...fields,
        member_obligation: null,
        payer_obligation: null,
        pre_deductible_member_obligation: null,
        pre_deductible_payer_obligation: null,
        post_deductible_member_obligation: null,
        post_deductible_payer_obligation: null,
        post_oop_max_member_obligation: null,
        post_oop_max_payer_obligation: null,
        remaining_sessions_before_deductible: null,
        remaining_sessions_before_oop_max: null,
        telehealth: fields.telehealth ? { ...fields.telehealth, member_obligation: null } : null,
      },
      partial: 'UNKNOWN_COSTSHARE',
    };
  }
  if (isQmb(coverage)) {
    // QMB: Medicaid pays the Medicare cost share and the provider may not bill the member for it
    // (Social Security Act §1902(n)(3)(B), §1866(a)(1)(A)): the member owes $0 of a covered session.
    const zero = C === null ? null : 0;
    return {
      fields: {
        ...fields,
        member_obligation: zero,
        payer_obligation: C,
        pre_deductible_member_obligation: zero,
        pre_deductible_payer_obligation: C,
        post_deductible_member_obligation: zero,
        post_deductible_payer_obligation: C,
        remaining_sessions_before_deductible: null,
        remaining_sessions_before_oop_max: null,
        telehealth: fields.telehealth ? { ...fields.telehealth, member_obligation: zero } : null,
      },
      partial: null,
    };
  }
  const cap = benefits?.payer_cap;
  if (cap !== undefined) return capped(fields, partialOf(benefits, f), cap, C);
  return { fields, partial: partialOf(benefits, f) };
}

/**
 * A dollar maximum on what the payer pays (docs/estimates.md 1.1, "Limits and caps"): the payer pays at most
 * `cap` of the session, the member the rest. An unknown cap makes the member's share unknown (206
 * UNKNOWN_REMAININGS) unless the payer pays nothing anyway; the phase fields, the plan's rule in each phase,
 * are left as they are, and the session counts are unknown once the cap may bind.
 */
function capped(fields: EstimateFinancials, partial: EstimatePartial | null, cap: Cents | null, C: Cents | null): EstimateOutcome {
  if (C === null) return { fields, partial: partial ?? (cap === null ? 'UNKNOWN_REMAININGS' : null) };
  const member = fields.member_obligation;
  const payer = member === null ? null : C - member;
  const counts = { remaining_sessions_before_deductible: null, remaining_sessions_before_oop_max: null };
  const tele = fields.telehealth;
  const capOne = (m: Cents | null): Cents | null => (m === null ? null : cap === null ? (m === C ? C : null) : C - Math.min(C - m, cap));
  if (cap === null) {
    if (payer === 0) return { fields, partial };
    return {
      fields: {
        ...fields,
        member_obligation: null,
        payer_obligation: null,
        ...counts,
        telehealth: tele ? { ...tele, member_obligation: capOne(tele.member_obligation) } : null,
      },
      partial: partial ?? 'UNKNOWN_REMAININGS',
    };
  }
  const owed = capOne(member);
  if (owed === member) return { fields, partial };
  return {
    fields: {
      ...fields,
      member_obligation: owed,
      payer_obligation: owed === null ? null : C - owed,
      ...counts,
      telehealth: tele ? { ...tele, member_obligation: capOne(tele.member_obligation) } : null,
    },
    partial,
  };
}

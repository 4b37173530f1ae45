/** Estimate: one payer, by member ID; plan, benefits, what this session costs the member, and reset rules. */
import { benefitAlerts, estimate as computeEstimate, isQmb } from '../domain/estimate/index.ts';
import type { Coverage, IsoDate } from '../domain/coverage.ts';
import { requestedEncounter } from '../domain/encounter.ts';
import { resetRules } from '../domain/plan-rules.ts';
import type { EstimateRequest } from '../domain/schemas/requests.ts';
import type { EstimateResponse } from '../domain/schemas/responses.ts';
import type { TraceEntry } from '../x12/index.ts';
import { askPayer } from './ask-payer.ts';
import { administratorToAsk, followCarveOut } from './carve-out.ts';
import type { CallContext, OperationDeps } from './context.ts';
import { estimateExplanation } from './explain.ts';
import { buildInquiry } from './inquiry.ts';
import { withPayerContext } from './payer-context.ts';
import { planFields } from './present.ts';
import { resolvePayer } from './resolve-payer.ts';

export interface OperationResult<T> {
  status: 200 | 206;
  body: T;
  payer_id: string;
  /** The coverage the answer was read from (after any carve-out): the FHIR door lists its benefits. */
  coverage?: Coverage;
}

export function sessionCostCents(value: string | number | undefined): number | null {
  if (value === undefined || value === '') return null;
  return typeof value === 'number' ? value : Number(value);
}

export async function runEstimate(deps: OperationDeps, req: EstimateRequest, ctx: CallContext): Promise<OperationResult<EstimateResponse>> {
  const payerId = resolvePayer(deps.network, req.payer_id);
  const today = deps.today();
  const inquiry = buildInquiry(
    {
      payer_id: payerId,
      member_id: req.member_id,
      first_name: req.member_first_name,
      last_name: req.member_last_name,
      dob: req.member_dob,
      provider_npi: req.provider_npi,
      provider_first_name: req.provider_first_name,
      provider_last_name: req.provider_last_name,
    },
    today,
    requestedEncounter(req, today),
  );
  const trace: TraceEntry[] | undefined = req.explain === true ? [] : undefined;
  const adminTrace: TraceEntry[] | undefined = trace ? [] : undefined;
  const first = (await askPayer(deps, inquiry, ctx, trace)).coverage;
  const { coverage, answeredBy } = await followCarveOut(deps, withPayerContext(deps, payerId, first), inquiry, ctx, adminTrace);
  const { status, body } = estimateBody(coverage, req, today, inquiry.date);
  // Whose answer the price is: the administrator's, not the medical plan's (docs/estimates.md section 1.3).
  if (answeredBy) body.priced_by = answeredBy;
  if (trace) {
    const administrator = administratorToAsk(deps, first);
    body.explanation = estimateExplanation(coverage, body, {
      date_of_service: inquiry.date,
      trace,
      administrator: administrator && adminTrace && adminTrace.length > 0 ? { payer_id: administrator, trace: adminTrace } : null,
    });
  }
  if (deps.keepEstimate && ctx.owner) await deps.keepEstimate({ owner: ctx.owner, request_id: ctx.request_id, request: req, body, coverage });
  return { status, body, payer_id: coverage.payer_id, coverage };
}

/**
 * What the estimate response is made of: the plan's fields (alerts included), the engine's figures,
 * the reset rules, and the 206 code when one applies. estimateBody lays them out as the response.
 */
export function estimateParts(coverage: Coverage, req: EstimateRequest, today: IsoDate, dateOfService: IsoDate = today) {
  const { fields, partial } = computeEstimate(coverage, {
    session_cost: sessionCostCents(req.provider_session_cost),
    in_network: req.in_network ?? true,
    date_of_service: dateOfService,
  });
  const reset = resetRules(coverage, today);
  // The plan's status on the visit's day, the day the gates judge (docs/estimates.md section 10): never INACTIVE beside a copay.
  const plan = planFields(coverage, { first_name: req.member_first_name, last_name: req.member_last_name, dob: req.member_dob }, dateOfService);
  plan.alerts.push(...benefitAlerts(coverage, req.in_network ?? true, dateOfService));
  if (reset.plan_reset_soon) {
    plan.alerts.push({
      code: 'PLAN_RESET_SOON',
      message:
        reset.reset_benefits_status === 'DETECTED_ACTION_REQUIRED'
          ? `The plan year resets soon and ${reset.reset_benefits?.changes.join(', ')} change${reset.reset_benefits?.changes.length === 1 ? 's' : ''}`
          : 'The plan year resets soon',
    });
  }
  return { plan, fields, reset, partial };
}

/**
 * The estimate response for a member's (carve-out-merged) coverage: pure, so recorded 271s can be checked without a server.
 * `dateOfService` (default today) is the encounter's: a plan not in force on it costs the member the whole session.
 */
export function estimateBody(
  coverage: Coverage,
  req: EstimateRequest,
  today: IsoDate,
  dateOfService: IsoDate = today,
): { status: 200 | 206; body: EstimateResponse } {
  const { plan, fields, reset, partial } = estimateParts(coverage, req, today, dateOfService);
  // One object literal of the response's fields, in the order Object.assign(plan, fields, reset) gave: assigning
  // ~55 properties one by one (Object.assign, or spreads, some twenty times slower in Node 20) turns the body into
  // a dictionary-mode object, about 5 µs a call. test/operations/estimate-body.test.ts holds it equal to that merge.
  const body: EstimateResponse = {
    payer_id: plan.payer_id,
    payer_name: plan.payer_name,
    plan_name: plan.plan_name,
    plan_type: plan.plan_type,
    insurance_type: plan.insurance_type,
    group_name: plan.group_name,
    group_id: plan.group_id,
    plan_begin_date: plan.plan_begin_date,
    plan_end_date: plan.plan_end_date,
    eligibility_end_date: plan.eligibility_end_date,
    plan_status: plan.plan_status,
    coverage_status: plan.coverage_status,
    mental_health_coverage: plan.mental_health_coverage,
    relationship_to_subscriber: plan.relationship_to_subscriber,
    demographics: plan.demographics,
    subscriber_demographics: plan.subscriber_demographics,
    alerts: plan.alerts,
    third_party_payer: plan.third_party_payer,
    additional_policy: plan.additional_policy,
    is_marketplace: plan.is_marketplace,
    is_bluecard: plan.is_bluecard,
    is_hdhp: plan.is_hdhp,
    in_network: fields.in_network,
    provider_session_cost: fields.provider_session_cost,
    benefit_structure: fields.benefit_structure,
    copayment: fields.copayment,
    coinsurance: fields.coinsurance,
    deductible: fields.deductible,
    remaining_deductible: fields.remaining_deductible,
    family_deductible: fields.family_deductible,
    family_remaining_deductible: fields.family_remaining_deductible,
    oop_max: fields.oop_max,
    remaining_oop_max: fields.remaining_oop_max,
    family_oop_max: fields.family_oop_max,
    family_remaining_oop_max: fields.family_remaining_oop_max,
    member_obligation: fields.member_obligation,
    payer_obligation: fields.payer_obligation,
    pre_deductible_member_obligation: fields.pre_deductible_member_obligation,
    pre_deductible_payer_obligation: fields.pre_deductible_payer_obligation,
    post_deductible_member_obligation: fields.post_deductible_member_obligation,
    post_deductible_payer_obligation: fields.post_deductible_payer_obligation,
    post_oop_max_member_obligation: fields.post_oop_max_member_obligation,
    post_oop_max_payer_obligation: fields.post_oop_max_payer_obligation,
    remaining_sessions_before_deductible: fields.remaining_sessions_before_deductible,
    remaining_sessions_before_oop_max: fields.remaining_sessions_before_oop_max,
    telehealth: fields.telehealth,
    visits_remaining: fields.visits_remaining,
    prior_authorization_required: fields.prior_authorization_required,
    plan_reset_soon: reset.plan_reset_soon,
    reset_benefits_status: reset.reset_benefits_status,
    reset_benefits: reset.reset_benefits,
    pcp: coverage.pcp,
    utilization_manager: coverage.utilization_manager,
    qmb_status: isQmb(coverage),
    encounter: requestedEncounter(req, today),
  };
  if (partial) body.error_code = partial;

  return { status: partial ? 206 : 200, body };
}

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
  return { status, body, payer_id: coverage.payer_id, coverage };
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
  const { fields, partial } = computeEstimate(coverage, {
    session_cost: sessionCostCents(req.provider_session_cost),
    in_network: req.in_network ?? true,
    date_of_service: dateOfService,
  });
  const reset = resetRules(coverage, today);
  const plan = planFields(coverage, { first_name: req.member_first_name, last_name: req.member_last_name, dob: req.member_dob }, today);
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
  // Object.assign, not object spread: V8 in Node 20 copies these ~50 properties spread from three
  // objects some twenty times slower (about 100 µs, a third of a sandbox estimate's CPU; bench/RESULTS.md).
  // Nested so that TypeScript types the result (Object.assign of four sources is `any`).
  const body: EstimateResponse = Object.assign(Object.assign({}, plan, fields), reset, {
    pcp: coverage.pcp,
    utilization_manager: coverage.utilization_manager,
    qmb_status: isQmb(coverage),
    encounter: requestedEncounter(req, today),
    ...(partial ? { error_code: partial } : {}),
  });
  return { status: partial ? 206 : 200, body };
}

/** Estimate: one payer, by member ID; plan, benefits, what this session costs the member, and reset rules. */
import { benefitAlerts, estimate as computeEstimate, isQmb, sessionCostAlert } from '../domain/estimate/index.ts';
import type { Coverage, IsoDate } from '../domain/coverage.ts';
import { requestedEncounter, serviceDateWindow, type Encounter } from '../domain/encounter.ts';
import { ServiceError } from '../domain/errors.ts';
import { courseOfCare, pastPlanYear, planYearEnd } from '../domain/estimate/course.ts';
import { courseSessions, encounterKey, type CourseSession } from '../domain/estimate/course-sessions.ts';
import { RESET_WINDOW_DAYS, resetRules } from '../domain/plan-rules.ts';
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
import { OperationErrors } from './errors.ts';

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

/** The sessions a request's `course` asks about (docs/course-of-care.md), or null without one; refused with 400. */
function requestedCourse(req: EstimateRequest, today: IsoDate): CourseSession[] | null {
  if (!req.course) return null;
  const encounter = requestedEncounter(req, today);
  const defaults = { ...encounter, session_cost: sessionCostCents(req.provider_session_cost) };
  const course = courseSessions(req.course, defaults, Boolean(req.date_of_service));
  if ('errors' in course) {
    throw OperationErrors.invalidFields(course.errors.map((e) => e.field).join(', ')).with({ errors: course.errors });
  }
  return course.sessions;
}

export async function runEstimate(deps: OperationDeps, requested: EstimateRequest, ctx: CallContext): Promise<OperationResult<EstimateResponse>> {
  const payerId = resolvePayer(deps.network, requested.payer_id);
  const today = deps.clock.today();
  const sessions = requestedCourse(requested, today);
  // A course's first session is the one the estimate prices (with `dates`, its date is the first date's).
  const req = sessions ? { ...requested, date_of_service: sessions[0]!.date_of_service } : requested;
  const ask = async (encounter: Encounter, trace?: TraceEntry[], adminTrace?: TraceEntry[]) => {
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
      encounter,
    );
    const first = (await askPayer(deps, inquiry, ctx, trace)).coverage;
    return { inquiry, first, ...(await followCarveOut(deps, withPayerContext(deps, payerId, first), inquiry, ctx, adminTrace)) };
  };
  const trace: TraceEntry[] | undefined = req.explain === true ? [] : undefined;
  const adminTrace: TraceEntry[] | undefined = trace ? [] : undefined;
  const { inquiry, first, coverage, answeredBy } = await ask(requestedEncounter(req, today), trace, adminTrace);
  const { status, body } = estimateBody(coverage, req, today, inquiry.date);
  // First: a cost in dollars sent as cents makes every figure after it wrong.
  const low = sessionCostAlert(sessionCostCents(req.provider_session_cost), deps.sessionCostFloorCents);
  if (low) body.alerts.unshift(low);
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
  // What the owner's remittances of this payer and group keep saying: advisory, the figures stay the payer's.
  if (deps.remittanceAdvice && ctx.owner) {
    const advice = await deps.remittanceAdvice(ctx.owner, body);
    body.alerts.push(...advice);
    if (body.explanation) body.explanation.obligation.push(...advice.map((a) => `Advisory, not applied: ${a.message}`));
  }
  // The session on the date of service is what a remittance pays: kept before any course is priced (docs/remittances.md).
  if (deps.keepEstimate && ctx.owner) await deps.keepEstimate({ owner: ctx.owner, request_id: ctx.request_id, request: req, body, coverage });
  if (!sessions) return { status, body, payer_id: coverage.payer_id, coverage };
  body.course = await priceCourse(sessions, coverage, encounterKey(requestedEncounter(req, today)), req.in_network ?? true, today, (e) => ask(e));
  const unknown = body.course.lines.find((l) => l.error_code !== null);
  // The answer is partial when a session's share is unknown, as it is when the first session's is (docs/course-of-care.md).
  if (status === 200 && unknown?.error_code) body.error_code = unknown.error_code;
  return { status: body.error_code ? 206 : status, body, payer_id: coverage.payer_id, coverage };
}

/**
 * The course of care: the payer is asked once per encounter of the course on its first date, and once
 * more per encounter on a date of the next plan year when the course runs past this one's end, the
 * next year is reported and a date of it is one payers answer for (docs/course-of-care.md).
 */
async function priceCourse(
  sessions: CourseSession[],
  coverage: Coverage,
  mainKey: string,
  inNetwork: boolean,
  today: IsoDate,
  ask: (e: Encounter) => Promise<{ coverage: Coverage }>,
) {
  const firstDate = sessions[0]!.date_of_service;
  const encounterOf = (s: CourseSession, date: IsoDate): Encounter => ({
    date_of_service: date,
    procedure_code: s.procedure_code,
    place_of_service: s.place_of_service,
  });
  const kinds = new Map<string, CourseSession>();
  for (const s of sessions) if (!kinds.has(encounterKey(s))) kinds.set(encounterKey(s), s);
  const current = new Map<string, Coverage>([[mainKey, coverage]]);
  for (const [key, s] of kinds) if (!current.has(key)) current.set(key, (await ask(encounterOf(s, firstDate))).coverage);

  const next = new Map<string, Coverage>();
  let nextUnknown: string | null = null;
  const past = sessions.filter((s) => pastPlanYear(current.get(encounterKey(s))!, firstDate, s.date_of_service));
  if (past.length > 0) {
    const thisYear = current.get(encounterKey(past[0]!))!;
    const reported = thisYear.next_plan_year;
    const latest = serviceDateWindow(today).latest;
    // The payer is asked about the first session of the next plan year, else its first day, when payers answer for it.
    const asked = [past.find((s) => reported !== null && s.date_of_service >= reported.begin_date)?.date_of_service, reported?.begin_date].find(
      (d): d is IsoDate => d !== undefined && d <= latest,
    );
    if (thisYear.plan_end_date === null) {
      // Without a plan end the payer's rows cannot tell this year from the next (docs/estimates.md 1.3): no answer is read for it.
      nextUnknown = `the payer reports no end to the plan year that began ${thisYear.plan_begin_date}, which ends by ${planYearEnd(thisYear)}`;
    } else if (reported === null) nextUnknown = `the plan year ends ${thisYear.plan_end_date} and the payer does not report the next one`;
    else if (asked === undefined) nextUnknown = `the next plan year begins ${reported.begin_date}, and payers answer for dates through ${latest} only`;
    else {
      try {
        for (const s of past) {
          const key = encounterKey(s);
          if (!next.has(key)) next.set(key, (await ask(encounterOf(s, asked))).coverage);
        }
      } catch (err) {
        if (!(err instanceof ServiceError)) throw err;
        next.clear();
        nextUnknown = `the payer did not answer for the next plan year (${err.code})`;
      }
    }
  }
  return courseOfCare({ sessions, in_network: inNetwork, current, next, next_unknown: nextUnknown });
}

/** The first day of the next plan year: the payer's, else the day after the plan ends; null when neither is known. */
function resetDate(coverage: Coverage): IsoDate | null {
  if (coverage.next_plan_year?.begin_date) return coverage.next_plan_year.begin_date;
  if (!coverage.plan_end_date) return null;
  const next = new Date(`${coverage.plan_end_date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
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
    // The day it resets, so "why this alert?" answers itself (every plan ending Dec 31 carries it through December).
    const on = resetDate(coverage);
    const changes = reset.reset_benefits_status === 'DETECTED_ACTION_REQUIRED' ? (reset.reset_benefits?.changes ?? []) : [];
    plan.alerts.push({
      code: 'PLAN_RESET_SOON',
      message: `The plan year resets ${on ? `on ${on}, within ${RESET_WINDOW_DAYS} days` : 'soon'}${changes.length ? ` and ${changes.join(', ')} change${changes.length === 1 ? 's' : ''}` : ': deductible and out-of-pocket amounts start over'}`,
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

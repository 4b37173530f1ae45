/**
 * Mapping out: our answer (the plan fields, the estimate, the normalized coverage) as a
 * CoverageEligibilityResponse. docs/fhir.md lists each field beside its FHIR element, and defines
 * the extensions (session cost share, alerts, plan and insurance type).
 */
import type {
  CoverageEligibilityRequest,
  CoverageEligibilityResponse,
  CoverageEligibilityResponseError,
  CoverageEligibilityResponseInsurance,
  Extension,
  Reference,
  Resource,
} from '@medplum/fhirtypes';
import type { Coverage } from '../domain/coverage.ts';
import type { Alert, DiscoverResponse, EstimateFinancials, PayerErrorEntry } from '../domain/schemas/responses.ts';
import { benefitItems } from './benefits-out.ts';
import { centsToMoney } from './money.ts';
import type { FhirCheck, RequestContext } from './request-in.ts';
import { CS, EXT } from './systems.ts';

/** The plan fields every operation answers with, and, from an estimate, its figures. */
export type PlanAnswer = DiscoverResponse & Partial<EstimateFinancials> & { error_code?: 'UNKNOWN_COSTSHARE' | 'UNKNOWN_REMAININGS' };

export interface AnswerInput {
  purpose: FhirCheck['purpose'];
  body: PlanAnswer;
  /** The coverage the answer was read from: its benefits become the items (benefits purpose only). */
  coverage: Coverage | null;
  context: RequestContext;
  /** How the response names the request it answers. */
  request: Reference<CoverageEligibilityRequest>;
  created: string;
}

const money = (url: string, cents: number | null | undefined): Extension[] => (typeof cents === 'number' ? [{ url, valueMoney: centsToMoney(cents) }] : []);
const integer = (url: string, n: number | null | undefined): Extension[] => (typeof n === 'number' ? [{ url, valueInteger: n }] : []);

/** The session cost share extension (docs/fhir.md#session-cost-share); null when no share was computed. */
export function sessionCostShare(f: Partial<EstimateFinancials>): Extension | null {
  const parts: Extension[] = [
    ...(typeof f.in_network === 'boolean' ? [{ url: 'in-network', valueBoolean: f.in_network }] : []),
    ...(f.benefit_structure ? [{ url: 'benefit-structure', valueString: f.benefit_structure }] : []),
    ...money('session-cost', f.provider_session_cost),
    ...money('member-obligation', f.member_obligation),
    ...money('payer-obligation', f.payer_obligation),
    ...money('pre-deductible-member-obligation', f.pre_deductible_member_obligation),
    ...money('pre-deductible-payer-obligation', f.pre_deductible_payer_obligation),
    ...money('post-deductible-member-obligation', f.post_deductible_member_obligation),
    ...money('post-deductible-payer-obligation', f.post_deductible_payer_obligation),
    ...money('post-oop-max-member-obligation', f.post_oop_max_member_obligation),
    ...money('post-oop-max-payer-obligation', f.post_oop_max_payer_obligation),
    ...integer('remaining-sessions-before-deductible', f.remaining_sessions_before_deductible),
    ...integer('remaining-sessions-before-oop-max', f.remaining_sessions_before_oop_max),
    ...money('telehealth-member-obligation', f.telehealth?.member_obligation),
  ];
  return parts.length > 0 ? { url: EXT.sessionCostShare, extension: parts } : null;
}

export function alertExtension(alert: Alert): Extension {
  const payerValues = Object.entries(alert.payer_values ?? {}).map(([field, v]) => ({
    url: 'payer-value',
    extension: [{ url: 'field', valueCode: field }, ...(v === null ? [] : [{ url: 'value', valueString: v }])],
  }));
  return {
    url: EXT.alert,
    extension: [{ url: 'code', valueCoding: { system: CS.alertCode, code: alert.code } }, { url: 'message', valueString: alert.message }, ...payerValues],
  };
}

export function payerError(e: PayerErrorEntry): CoverageEligibilityResponseError {
  return { code: { coding: [{ system: CS.payerError, code: e.code, display: e.description }], text: e.followup ?? e.description } };
}

const dollars = (cents: number) => `${(cents / 100).toFixed(2)} USD`;

function disposition(input: AnswerInput): string {
  const { body, purpose } = input;
  const status = body.plan_status === 'INACTIVE' ? 'not active' : body.plan_status === 'ACTIVE_AT_RISK' ? 'active, at risk' : 'active';
  const lines = [`Coverage is ${status} (${body.plan_status}).`];
  if (purpose === 'benefits' && typeof body.member_obligation === 'number' && typeof body.provider_session_cost === 'number') {
    lines.push(`The member's share of this session: ${dollars(body.member_obligation)} of ${dollars(body.provider_session_cost)}.`);
  }
  if (body.error_code === 'UNKNOWN_COSTSHARE') lines.push('The payer did not report the cost share.');
  if (body.error_code === 'UNKNOWN_REMAININGS') lines.push('The payer did not report the remaining amounts.');
  return lines.join(' ');
}

/** Contained resources the answer refers to (`#id`), directly or through another contained one: no more. */
function referencedContained(contained: Resource[] | undefined, roots: (Reference | null)[]): Resource[] | undefined {
  if (!contained?.length) return undefined;
  const byId = new Map(contained.filter((r) => r.id).map((r) => [r.id!, r]));
  const keep = new Map<string, Resource>();
  const visit = (ref: string | undefined) => {
    if (!ref?.startsWith('#') || keep.has(ref.slice(1))) return;
    const found = byId.get(ref.slice(1));
    if (!found) return;
    keep.set(ref.slice(1), found);
    for (const m of JSON.stringify(found).matchAll(/"reference":"(#[^"]+)"/g)) visit(m[1]);
  };
  for (const r of roots) visit(r?.reference);
  return keep.size > 0 ? [...keep.values()] : undefined;
}

export function eligibilityResponse(input: AnswerInput): CoverageEligibilityResponse {
  const { body, context, purpose } = input;
  const insuranceExt: Extension[] = [
    ...(body.plan_type ? [{ url: EXT.planType, valueCoding: { system: CS.planType, code: body.plan_type } }] : []),
    { url: EXT.insuranceType, valueCoding: { system: CS.insuranceType, code: body.insurance_type } },
  ];
  const period = { ...(body.plan_begin_date ? { start: body.plan_begin_date } : {}), ...(body.plan_end_date ? { end: body.plan_end_date } : {}) };
  const items = purpose === 'benefits' && input.coverage ? benefitItems(input.coverage) : [];
  const insurance: CoverageEligibilityResponseInsurance = {
    extension: insuranceExt,
    coverage: context.coverage ?? { display: [body.payer_name, body.plan_name].filter((s) => s).join(': ') },
    inforce: body.plan_status !== 'INACTIVE',
    ...(period.start || period.end ? { benefitPeriod: period } : {}),
    ...(items.length > 0 ? { item: items } : {}),
  };
  const share = purpose === 'benefits' ? sessionCostShare(body) : null;
  const extension = [...(share ? [share] : []), ...body.alerts.map(alertExtension)];
  const errors: CoverageEligibilityResponseError[] = [
    ...(body.error_code ? [{ code: { coding: [{ system: CS.errorCode, code: body.error_code }], text: disposition(input) } }] : []),
    ...(body.payer_errors ?? []).map(payerError),
  ];
  const contained = referencedContained(context.contained, [context.patient, context.coverage]);
  const network = input.coverage ? (body.in_network === false ? input.coverage.out_of_network : input.coverage.in_network) : null;
  const preAuthRef = purpose === 'validation' ? undefined : network?.prior_authorization_number;
  return {
    resourceType: 'CoverageEligibilityResponse',
    ...(contained ? { contained } : {}),
    ...(extension.length > 0 ? { extension } : {}),
    status: 'active',
    purpose: context.purpose,
    patient: context.patient,
    ...(context.servicedDate ? { servicedDate: context.servicedDate } : {}),
    created: input.created,
    request: input.request,
    outcome: body.error_code ? 'partial' : 'complete',
    disposition: disposition(input),
    insurer: { identifier: { system: CS.payerId, value: body.payer_id }, display: body.payer_name },
    insurance: [insurance],
    ...(preAuthRef ? { preAuthRef } : {}),
    ...(errors.length > 0 ? { error: errors } : {}),
  };
}

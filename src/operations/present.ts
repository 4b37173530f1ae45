/** Turns a normalized Coverage into the response fields every operation shares, with alerts. */
import type { Coverage, IsoDate, Person } from '../domain/coverage.ts';
import { planStatus } from '../domain/plan-rules.ts';
import { comparableName as norm } from '../domain/names.ts';
import type { Alert, DiscoverResponse } from '../domain/schemas/responses.ts';

export interface RequestedIdentity {
  first_name?: string | undefined;
  last_name?: string | undefined;
  dob?: string | undefined;
}

/** Fields the caller sent that the payer's record disagrees with (blank fields are not compared). */
export function demographicDifferences(requested: RequestedIdentity, member: Person): Record<string, string | null> {
  const diff: Record<string, string | null> = {};
  if (norm(requested.first_name) && norm(requested.first_name) !== norm(member.first_name)) diff.first_name = member.first_name;
  if (norm(requested.last_name) && norm(requested.last_name) !== norm(member.last_name)) diff.last_name = member.last_name;
  if (requested.dob && member.dob && requested.dob !== member.dob) diff.dob = member.dob;
  return diff;
}

export function alertsFor(coverage: Coverage, requested: RequestedIdentity): Alert[] {
  const alerts: Alert[] = [];
  const diff = demographicDifferences(requested, coverage.member);
  if (coverage.payer_corrected_demographics) {
    alerts.push({
      code: 'PAYER_CORRECTED',
      message: 'The payer corrected the member demographics it was sent; update the patient record',
      payer_values: { first_name: coverage.member.first_name, last_name: coverage.member.last_name, dob: coverage.member.dob },
    });
  } else if (Object.keys(diff).length > 0) {
    alerts.push({
      code: 'DEMOGRAPHIC_MISMATCH',
      message: `The payer's record differs in ${Object.keys(diff).join(', ')}`,
      payer_values: diff,
    });
  }
  if (coverage.third_party_payer) {
    const tpp = coverage.third_party_payer;
    alerts.push({
      code: 'CARVE_OUT_DETECTED',
      message: `Behavioral health is administered by ${tpp.name}${tpp.phone ? ` (${tpp.phone})` : ''}`,
    });
  } else if (coverage.mental_health_coverage === 'carved_out') {
    alerts.push({
      code: 'CARVE_OUT_DETECTED',
      message: 'Behavioral health is administered outside the medical plan by an administrator the payer does not name',
    });
  }
  if (coverage.additional_policies.length > 0) {
    alerts.push({
      code: 'ADDITIONAL_POLICY',
      message: `The member has ${coverage.additional_policies.length} other polic${coverage.additional_policies.length === 1 ? 'y' : 'ies'}; coordinate benefits`,
    });
  }
  if (coverage.utilization_manager) {
    alerts.push({ code: 'UTILIZATION_MANAGEMENT', message: `Visits are reviewed by ${coverage.utilization_manager.name}; authorization may be required` });
  }
  if (coverage.member.address === null) {
    alerts.push({ code: 'MISSING_ADDRESS', message: 'The payer returned no address for the member' });
  }
  return alerts;
}

/** The plan's fields, its status judged on `asOf`: today, or an estimate's date of service. */
export function planFields(coverage: Coverage, requested: RequestedIdentity, asOf: IsoDate): DiscoverResponse {
  const status = planStatus(coverage, asOf);
  const alerts = alertsFor(coverage, requested);
  if (status === 'ACTIVE_AT_RISK' && coverage.coverage_status === 'unknown') {
    alerts.push({
      code: 'PLAN_AT_RISK',
      message: 'The payer states no eligibility status for the plan or for behavioral health; confirm coverage before the visit',
    });
  } else if (status === 'ACTIVE_AT_RISK') {
    alerts.push({
      code: 'PLAN_AT_RISK',
      message: `Coverage may end before the next visit${coverage.eligibility_end_date ? ` (eligibility ends ${coverage.eligibility_end_date})` : ''}`,
    });
  }
  return {
    payer_id: coverage.payer_id,
    payer_name: coverage.payer_name,
    plan_name: coverage.plan_name,
    plan_type: coverage.plan_type,
    insurance_type: coverage.insurance_type,
    group_name: coverage.group_name,
    group_id: coverage.group_id,
    plan_begin_date: coverage.plan_begin_date,
    plan_end_date: coverage.plan_end_date,
    eligibility_end_date: coverage.eligibility_end_date,
    plan_status: status,
    coverage_status: coverage.coverage_status,
    mental_health_coverage: coverage.mental_health_coverage,
    relationship_to_subscriber: coverage.relationship_to_subscriber,
    demographics: coverage.member,
    subscriber_demographics: coverage.subscriber,
    alerts,
    third_party_payer: coverage.third_party_payer,
    additional_policy: coverage.additional_policies,
    is_marketplace: coverage.is_marketplace,
    is_bluecard: coverage.is_bluecard,
    is_hdhp: coverage.is_hdhp,
  };
}

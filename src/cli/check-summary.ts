/**
 * The readable summary `coverage check` prints: the verdict in the console card's words
 * (http/console/verdict.js), status, plan, what the patient pays, progress, alerts.
 */
import type { DiscoverResponse, EstimateResponse, MedicaidResponse, ScanResponse } from '../domain/schemas/responses.ts';
import { pricedBy, properName, verdict } from '../http/console/verdict.js';

export type CheckResult =
  | { operation: 'estimate'; result: EstimateResponse }
  | { operation: 'discover'; result: DiscoverResponse }
  | { operation: 'scan'; result: ScanResponse }
  | { operation: 'medicaid'; result: MedicaidResponse };

const dollars = (cents: number | null | undefined) =>
  cents === null || cents === undefined ? 'unknown' : `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

const PARTIAL: Record<string, string> = {
  UNKNOWN_COSTSHARE: 'the payer did not report the cost share',
  UNKNOWN_REMAININGS: 'the payer did not report the remaining deductible and out-of-pocket amounts',
};

/** "$300.00 of $1,500.00 met, $1,200.00 left", with whatever parts the payer reported. */
export function progress(total: number | null, remaining: number | null): string {
  if (total === null && remaining === null) return 'unknown';
  if (total === null) return `${dollars(remaining)} left (total unknown)`;
  if (remaining === null) return `${dollars(total)} total (amount left unknown)`;
  return `${dollars(total - remaining)} of ${dollars(total)} met, ${dollars(remaining)} left`;
}

function costShare(r: EstimateResponse): string {
  const parts = [r.copayment !== null ? `copay ${dollars(r.copayment)}` : null, r.coinsurance !== null ? `coinsurance ${r.coinsurance} %` : null].filter(
    Boolean,
  );
  const structure = r.benefit_structure ?? 'benefit structure unknown';
  return parts.length > 0 ? `${structure}: ${parts.join(', ')}` : structure;
}

function patientPays(r: EstimateResponse): string {
  const where = r.in_network ? 'in network' : 'out of network';
  if (r.provider_session_cost === null) return `not estimated (no --cost given), ${where}`;
  if (r.member_obligation === null) return `unknown for a ${dollars(r.provider_session_cost)} session, ${where}`;
  // A carve-out's price is the administrator's answer, never the medical plan's: said with its source.
  const by = pricedBy(r);
  const source = by ? ` per ${properName(by.name)}` : '';
  return `${dollars(r.member_obligation)}${source} of a ${dollars(r.provider_session_cost)} session (plan pays ${dollars(r.payer_obligation)}), ${where}`;
}

type PlanFields = DiscoverResponse;

function planLines(r: PlanFields): [string, string][] {
  const dates = [r.plan_begin_date, r.plan_end_date].every((d) => d === null) ? '' : `, plan ${r.plan_begin_date ?? '?'} to ${r.plan_end_date ?? 'open'}`;
  const kind = [r.plan_type, r.insurance_type].filter(Boolean).join(', ');
  const member = r.demographics;
  const lines: [string, string][] = [
    ['Status', `${r.plan_status} (coverage ${r.coverage_status}, mental health ${r.mental_health_coverage}${dates})`],
    ['Plan', `${r.plan_name ?? 'unnamed plan'}${kind ? ` (${kind})` : ''} at ${r.payer_name} [${r.payer_id}]`],
    [
      'Member',
      [[member.first_name, member.last_name].filter(Boolean).join(' '), member.member_id && `ID ${member.member_id}`, member.dob && `DOB ${member.dob}`]
        .filter(Boolean)
        .join(', '),
    ],
  ];
  if (r.third_party_payer) lines.push(['Carve-out', `${r.third_party_payer.name}${r.third_party_payer.phone ? `, phone ${r.third_party_payer.phone}` : ''}`]);
  for (const p of r.additional_policy) lines.push(['Other policy', `${p.payer_name}${p.coordination ? ` (${p.coordination})` : ''}`]);
  return lines;
}

function alertLines(r: PlanFields): [string, string][] {
  if (r.alerts.length === 0) return [['Alerts', 'none']];
  return r.alerts.map((a, i) => [i === 0 ? 'Alerts' : '', `${a.code}: ${a.message}`]);
}

function estimateLines(r: EstimateResponse): [string, string][] {
  // An ended plan pays nothing: its copay and deductible progress would only mislead.
  if (r.plan_status === 'INACTIVE') {
    return [['Patient pays', r.provider_session_cost === null ? 'the whole session' : `the full ${dollars(r.provider_session_cost)} session`]];
  }
  const lines: [string, string][] = [
    ['Patient pays', patientPays(r)],
    ['Benefit', costShare(r)],
    ['Deductible', progress(r.deductible, r.remaining_deductible)],
    ['Out-of-pocket', progress(r.oop_max, r.remaining_oop_max)],
  ];
  if (r.telehealth) lines.push(['Telehealth', `patient pays ${dollars(r.telehealth.member_obligation)}`]);
  if (r.plan_reset_soon) {
    const changes = r.reset_benefits?.changes.join(', ');
    lines.push([
      'Plan reset',
      `${r.reset_benefits_status}${r.reset_benefits ? ` on ${r.reset_benefits.effective_date}` : ''}${changes ? ` (${changes})` : ''}`,
    ]);
  }
  return lines;
}

const PHASE_WORDS: Record<string, string> = {
  deductible: 'all to the deductible',
  deductible_met: 'meets the deductible',
  cost_share: 'cost share',
  oop_max: 'out-of-pocket maximum reached',
  qmb: 'QMB: the patient owes nothing',
  inactive: 'not covered: plan inactive',
  not_in_force: 'not covered: plan not in force',
  behavioral_health_inactive: 'not covered: behavioral health inactive',
  not_covered: 'not covered',
  visit_limit: 'not covered: visit limit used up',
};

/** The course of care, a line a session (docs/course-of-care.md). */
function courseLines(course: NonNullable<EstimateResponse['course']>): [string, string][] {
  const n = course.lines.length;
  const total =
    course.member_obligation === null
      ? `${n} sessions: patient pays unknown (${course.unknown_sessions} session${course.unknown_sessions === 1 ? '' : 's'} unknown)`
      : `${n} sessions: patient pays ${dollars(course.member_obligation)}, plan pays ${dollars(course.payer_obligation)}`;
  return [
    ['Course', total],
    ...course.lines.map((l): [string, string] => {
      const how = l.member_obligation === null ? `unknown: ${l.reason ?? ''}` : (PHASE_WORDS[l.phase ?? ''] ?? '');
      const year = l.plan_year === 'next' ? ', next plan year' : '';
      return ['', `${l.date_of_service}  ${dollars(l.member_obligation).padStart(9)}  ${how}${year}`];
    }),
  ];
}

function table(lines: [string, string][]): string {
  const width = Math.max(...lines.map(([k]) => k.length));
  return lines.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n') + '\n';
}

/** `status`: the HTTP status of the answer (206 partial); `today` YYYY-MM-DD. */
export function summarize(
  check: CheckResult,
  status: number = 'error_code' in check.result && check.result.error_code ? 206 : 200,
  today: string | null = null,
): string {
  const v = verdict(check.operation, status, check.result, today);
  const lines: [string, string][] = [['Verdict', v.text], ['Next', v.next], ...planLines(check.result)];
  switch (check.operation) {
    case 'estimate': {
      lines.push(...estimateLines(check.result));
      if (check.result.course) lines.push(...courseLines(check.result.course));
      const code = check.result.error_code;
      if (code) lines.push(['Partial', `${code}: ${PARTIAL[code] ?? 'some fields are unknown'}`]);
      break;
    }
    case 'scan': {
      const failed = check.result.payers_failed.map((f) => `${f.payer_id} ${f.error_code}`).join(', ');
      lines.push(['Payers', `${check.result.payers_checked} asked${failed ? `; could not answer: ${failed}` : ''}`]);
      break;
    }
    case 'medicaid': {
      const r = check.result;
      lines.push(['Medicaid', `${r.patient_state ?? 'state unknown'}, managed care ${r.managed_care ? 'yes' : 'no'}, QMB ${r.qmb_status ? 'yes' : 'no'}`]);
      if (r.pcp) lines.push(['PCP', [[r.pcp.first_name, r.pcp.last_name].filter(Boolean).join(' '), r.pcp.organization_name].filter(Boolean).join(', ')]);
      break;
    }
    case 'discover':
      break;
  }
  lines.push(...alertLines(check.result));
  return table(lines);
}

/** The rules the estimate applied to reach the member's share (docs/estimates.md sections 4 and 9), in words; built only when asked. */
import type { Cents, Coverage, IsoDate } from '../coverage.ts';
import type { EstimateFinancials } from '../schemas/responses.ts';
import { deductibleApplies } from './benefit-structure.ts';
import { gateOf, isQmb } from './estimate.ts';

/** Exact cents as $1,234.56 (integer arithmetic; unknown stays a word, never $0.00). */
export function dollars(c: Cents | null): string {
  if (c === null) return 'unknown';
  const abs = Math.abs(c);
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${c < 0 ? '-' : ''}$${whole}.${String(abs % 100).padStart(2, '0')}`;
}

const GATE_WORDS = {
  inactive: 'coverage inactive',
  not_in_force: 'the plan is not in force on the date of service',
  behavioral_health_inactive: 'the payer reports behavioral health (the mental-health service types) inactive',
  not_covered: 'not covered',
  visit_limit: 'no visits left of the visit limit',
} as const;

export function obligationSteps(coverage: Coverage, f: EstimateFinancials, dateOfService: IsoDate | null = null): string[] {
  const C = f.provider_session_cost;
  if (C === null) return ['no provider_session_cost: obligations are not computed, the benefits are still reported'];
  const b = f.in_network ? coverage.in_network : coverage.out_of_network;
  const gate = gateOf(coverage, b, dateOfService);
  if (gate !== null) {
    const why = gate === 'not_covered' && b?.not_covered_reason ? b.not_covered_reason : GATE_WORDS[gate];
    return [`${why}: the member pays the whole session, ${dollars(C)}`];
  }
  if (isQmb(coverage)) return ['QMB: the member owes $0 of Medicare cost sharing (Social Security Act §1902(n)(3)(B))'];
  if (!b) return ['the selected network reports no benefits: the cost share is unknown (206 UNKNOWN_COSTSHARE)'];
  const steps: string[] = [];
  const share =
    f.copayment !== null && f.coinsurance !== null && f.copayment > 0 && f.coinsurance > 0
      ? `copay ${dollars(f.copayment)} then ${f.coinsurance} % of the rest`
      : f.copayment !== null && f.copayment > 0
        ? `copay ${dollars(f.copayment)}`
        : f.coinsurance !== null && f.coinsurance > 0
          ? `${f.coinsurance} % coinsurance`
          : f.copayment === null && f.coinsurance === null
            ? null
            : 'no cost share (fully covered)';
  if (share === null) steps.push('neither copay nor coinsurance is known: the cost share is unknown');
  else steps.push(`cost share: ${share}`);
  const D = f.remaining_deductible;
  if (deductibleApplies(b)) {
    if (D === null) steps.push('the deductible applies but what remains of it is unknown');
    else if (D >= C) steps.push(`the deductible applies and ${dollars(D)} remains, at least the session cost: the whole session goes to it`);
    else if (D > 0) steps.push(`the deductible applies and ${dollars(D)} remains: the member pays it, then the cost share on the rest`);
    else steps.push('the deductible is met: the cost share applies');
  } else if (b.deductible !== null) {
    steps.push('the deductible does not hold this cost share: it applies from the first session');
  }
  if (b.oop_max !== null) {
    const O = f.remaining_oop_max;
    steps.push(O === null ? 'the out-of-pocket maximum remaining is unknown' : `capped at the out-of-pocket maximum remaining, ${dollars(O)}`);
  }
  steps.push(
    f.member_obligation === null ? 'member share: unknown (206)' : `member pays ${dollars(f.member_obligation)}, payer ${dollars(f.payer_obligation)}`,
  );
  return steps;
}

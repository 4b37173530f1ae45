/**
 * Carve-out follow-up: when the first 271 hands behavioral health to an administrator the
 * network can reach, ask the administrator for the same member and merge its benefits in.
 */
import type { Coverage } from '../domain/coverage.ts';
import type { OtherEntity } from '../domain/schemas/coverage.ts';
import { ServiceError } from '../domain/errors.ts';
import type { Inquiry } from '../domain/inquiry.ts';
import type { TraceEntry } from '../x12/index.ts';
import { askPayer } from './ask-payer.ts';
import type { CallContext, OperationDeps } from './context.ts';

export function administratorToAsk(deps: OperationDeps, coverage: Coverage): string | null {
  const id = coverage.third_party_payer?.payer_id;
  if (coverage.mental_health_coverage !== 'carved_out' || !id || id === coverage.payer_id) return null;
  if (!deps.network.payer(id)) return null;
  // The directory may list which administrators a payer hands mental health to; no list means any it knows.
  const handsTo = deps.network.payer(coverage.payer_id)?.carve_out_administrators;
  return !handsTo || handsTo.length === 0 || handsTo.includes(id) ? id : null;
}

/**
 * A carve-out whose administrator was not asked (or did not answer): the medical plan's benefits
 * do not price behavioral health, so the cost share is unknown (206 UNKNOWN_COSTSHARE) and
 * third_party_payer says whom to ask (docs/estimates.md section 1.3).
 */
export function withoutMedicalPrice(coverage: Coverage): Coverage {
  if (coverage.mental_health_coverage !== 'carved_out') return coverage;
  const { this_plan_year_in_network: _thisYear, ...rest } = coverage;
  return { ...rest, in_network: null, out_of_network: null, telehealth: null };
}

/**
 * `trace` (explain: true) collects where the administrator's figures came from, in its own 271.
 * `answeredBy` is the administrator whose benefits the coverage now holds, or null when none answered.
 */
export async function followCarveOut(
  deps: OperationDeps,
  first: Coverage,
  inquiry: Inquiry,
  ctx: CallContext,
  trace?: TraceEntry[],
): Promise<{ coverage: Coverage; answeredBy: OtherEntity | null }> {
  const administrator = administratorToAsk(deps, first);
  if (!administrator) return { coverage: withoutMedicalPrice(first), answeredBy: null };
  const member = first.member;
  const second: Inquiry = {
    ...inquiry,
    payer: { id: administrator, name: first.third_party_payer?.name ?? null },
    subscriber: {
      ...inquiry.subscriber,
      member_id: member.member_id ?? inquiry.subscriber.member_id,
      first_name: member.first_name ?? inquiry.subscriber.first_name,
      last_name: member.last_name ?? inquiry.subscriber.last_name,
      dob: member.dob ?? inquiry.subscriber.dob,
    },
    trace_number: `${inquiry.trace_number}2`,
  };
  try {
    const { coverage: admin } = await askPayer(deps, second, ctx, trace);
    const { this_plan_year_in_network: _medical, ...plan } = first;
    return {
      coverage: {
        ...plan,
        in_network: admin.in_network,
        out_of_network: admin.out_of_network,
        telehealth: admin.telehealth,
        // The benefits are the administrator's: this year's too, when its answer priced the next plan year.
        ...(admin.this_plan_year_in_network !== undefined ? { this_plan_year_in_network: admin.this_plan_year_in_network } : {}),
        utilization_manager: first.utilization_manager ?? admin.utilization_manager,
      },
      answeredBy: first.third_party_payer,
    };
  } catch (err) {
    // The administrator's silence leaves the plan answer standing: the cost share stays unknown (206).
    if (err instanceof ServiceError) {
      if (trace) trace.length = 0;
      return { coverage: withoutMedicalPrice(first), answeredBy: null };
    }
    throw err;
  }
}

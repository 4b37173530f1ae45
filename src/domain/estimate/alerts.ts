/** Alerts the estimate adds about the benefit that prices the session (docs/estimates.md section 13). */
import type { Coverage, IsoDate } from '../coverage.ts';
import type { Alert } from '../schemas/responses.ts';
import { benefitsFor, gateOf } from './estimate.ts';

export function benefitAlerts(coverage: Coverage, inNetwork: boolean, dateOfService: IsoDate | null = null): Alert[] {
  const b = benefitsFor(coverage, inNetwork, dateOfService);
  const alerts: Alert[] = [];
  const where = inNetwork ? 'in network' : 'out of network';
  const gate = gateOf(coverage, b, dateOfService);
  if (gate === 'not_in_force') {
    alerts.push({ code: 'NOT_COVERED', message: `The plan is not in force on the date of service ${dateOfService}; the member pays the whole session` });
  } else if (gate === 'behavioral_health_inactive') {
    alerts.push({ code: 'NOT_COVERED', message: 'The payer reports behavioral health inactive for this member; the member pays the whole session' });
  }
  if (!b) return alerts;
  if (b.not_covered) {
    alerts.push({
      code: 'NOT_COVERED',
      message: b.not_covered_reason
        ? `${b.not_covered_reason[0]!.toUpperCase()}${b.not_covered_reason.slice(1)}; the member pays the whole session`
        : `The payer reports this service not covered ${where}; the member pays the whole session`,
    });
  }
  if (gate === null && b.payer_cap === 0) {
    alerts.push({ code: 'NOT_COVERED', message: `The payer's dollar maximum for this benefit is used up ${where}; the member pays the whole session` });
  }
  const v = b.visit_limit;
  if (v && v.remaining === 0) {
    alerts.push({
      code: 'VISIT_LIMIT',
      message: `No visits remain of the plan-year visit limit${v.total !== null ? ` (${v.total})` : ''}; the member pays the whole session`,
    });
  }
  if (b.prior_authorization_required === true) {
    alerts.push({ code: 'PRIOR_AUTHORIZATION', message: 'The payer requires prior authorization for this service' });
  }
  return alerts;
}

/** Below this many cents a session cost is more likely dollars typed into a cents field (COVERAGE_SESSION_COST_FLOOR_CENTS). */
export const DEFAULT_SESSION_COST_FLOOR_CENTS = 1000;

const usd = (cents: number) => `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/**
 * The price is computed as sent, but a session cost under the floor is almost always dollars sent as cents
 * ("provider_session_cost": 150 prices a $1.50 session): say so, with the cents the dollars would be
 * (docs/estimates.md, "Session cost"). A cost of 0 is a free session, not a slip; a floor of 0 turns this off.
 */
export function sessionCostAlert(cents: number | null, floorCents: number = DEFAULT_SESSION_COST_FLOOR_CENTS): Alert | null {
  if (cents === null || cents <= 0 || cents >= floorCents) return null;
  return {
    code: 'SESSION_COST_LOW',
    message: `${(cents / 100).toFixed(2)} USD: provider_session_cost is in cents, ${cents * 100} is ${usd(cents * 100)}`,
  };
}

/** Alerts the estimate adds about the benefit that prices the session (docs/estimates.md section 13). */
import type { Coverage } from '../coverage.ts';
import type { Alert } from '../schemas/responses.ts';

export function benefitAlerts(coverage: Coverage, inNetwork: boolean): Alert[] {
  const b = inNetwork ? coverage.in_network : coverage.out_of_network;
  const alerts: Alert[] = [];
  if (!b) return alerts;
  const where = inNetwork ? 'in network' : 'out of network';
  if (b.not_covered) {
    alerts.push({ code: 'NOT_COVERED', message: `The payer reports this service not covered ${where}; the member pays the whole session` });
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

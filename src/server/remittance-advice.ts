/**
 * The desk's advisories (docs/remittances.md 'Feedback at the desk'): the operations'
 * remittanceAdvice, reading the owner's kept remittance lines for the estimate's payer and group. A
 * store that cannot be read answers no advisory (logged): the estimate is answered as the payer gave it.
 */
import type { CallOwner } from '../operations/context.ts';
import { ADVISORY_DAYS, remittanceAdvisories } from '../operations/remittance/advisory.ts';
import type { Alert, EstimateResponse } from '../domain/schemas/responses.ts';
import type { RemittanceStore } from '../store/remittances.ts';
import { dateOf, type Clock } from '../domain/clock.ts';

export function remittanceAdvice(store: RemittanceStore, clock: Clock, onError: (err: unknown) => void) {
  return async (owner: CallOwner, body: EstimateResponse): Promise<Alert[]> => {
    if (body.group_id === null) return [];
    const at = dateOf(clock);
    try {
      const since = new Date(at.getTime() - ADVISORY_DAYS * 86_400_000).toISOString();
      const observations = await store.observations(owner.key_id, body.payer_id, body.group_id, since);
      return remittanceAdvisories({ group_id: body.group_id, copayment: body.copayment, coinsurance: body.coinsurance }, observations, at);
    } catch (err) {
      onError(err);
      return [];
    }
  };
}

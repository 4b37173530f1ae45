/**
 * How answered estimates are kept for remittances (docs/remittances.md 'Estimates kept'): the
 * operations' keepEstimate, writing the KeptEstimate sealed in the store under the caller's key owner,
 * for COVERAGE_ESTIMATE_RETENTION_DAYS, and the sweep that drops them with the remittances older than
 * COVERAGE_REMITTANCE_RETENTION_DAYS. A store that fails to keep one never withholds the answer
 * (the estimate is not PHI the audit must hold): it is logged, and that line stays unmatched.
 */
import type { AnsweredEstimate } from '../operations/context.ts';
import { keptEstimateOf } from '../operations/remittance/kept-estimate.ts';
import type { MemberHasher } from '../store/member-hash.ts';
import type { RemittanceStore } from '../store/remittances.ts';
import { dateOf, type Clock } from '../domain/clock.ts';

const DAY_MS = 86_400_000;

export interface Retention {
  /** COVERAGE_ESTIMATE_RETENTION_DAYS */
  estimateDays: number;
  /** COVERAGE_REMITTANCE_RETENTION_DAYS */
  remittanceDays: number;
}

/**
 * The sweep: estimates past their keeping time, and remittances (their lines and claims) received
 * more than `remittanceDays` ago. Run at most hourly, as estimates are kept.
 */
export async function sweepRemittanceStore(store: RemittanceStore, remittanceDays: number, at: Date): Promise<{ estimates: number; remittances: number }> {
  const estimates = await store.dropExpired(at.toISOString());
  const remittances = await store.dropRemittancesBefore(new Date(at.getTime() - remittanceDays * DAY_MS).toISOString());
  return { estimates, remittances };
}

export function keepEstimates(store: RemittanceStore, hash: MemberHasher, retention: Retention, clock: Clock, onError: (err: unknown) => void) {
  let nextSweep = 0;
  return async (a: AnsweredEstimate): Promise<void> => {
    // Only a priced session can be compared; an estimate without a member ID cannot be matched.
    if (a.body.provider_session_cost === null || !a.request.member_id) return;
    const at = dateOf(clock);
    const kept = keptEstimateOf(
      {
        id: a.request_id,
        at: at.toISOString(),
        key_id: a.owner.key_id,
        surface: a.owner.surface,
        member: { member_id: a.request.member_id, first_name: a.request.member_first_name ?? null, last_name: a.request.member_last_name ?? null },
        in_network: a.request.in_network ?? true,
        body: a.body,
        coverage: a.coverage,
      },
      hash,
    );
    try {
      await store.keepEstimate({
        id: kept.id,
        key_id: kept.key_id,
        member_id_hash: kept.member_id_hash,
        payer_id: kept.payer_id,
        date_of_service: kept.date_of_service,
        at: kept.at,
        expires_at: new Date(at.getTime() + retention.estimateDays * DAY_MS).toISOString(),
        payload: kept,
      });
      if (at.getTime() >= nextSweep) {
        nextSweep = at.getTime() + DAY_MS / 24;
        await sweepRemittanceStore(store, retention.remittanceDays, at);
      }
    } catch (err) {
      onError(err);
    }
  };
}

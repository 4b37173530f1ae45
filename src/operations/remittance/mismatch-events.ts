/**
 * The `estimate.mismatch` webhook event (docs/remittances.md 'Webhook event'): one per compared line
 * of a remittance whose verdict is under_collected or over_collected. Ids, payer and plan group,
 * amounts, verdict and causes; never a name, member ID, date of service or claim number.
 */
import type { EstimateMismatchEvent } from '../../domain/schemas/webhook-events.ts';
import type { RemittanceLine } from './ingest.ts';

export interface MismatchEvent extends EstimateMismatchEvent {
  /** Stable per remittance line: the same line queued twice is one delivery. */
  id: string;
}

export function mismatchEvents(remittanceId: string, receivedAt: string, lines: readonly Omit<RemittanceLine, 'observed'>[]): MismatchEvent[] {
  const out: MismatchEvent[] = [];
  for (const [i, l] of lines.entries()) {
    const c = l.comparison;
    if (!c || l.payer_id === null || l.estimate_id === null || c.difference === null || c.estimated_member === null) continue;
    if (c.verdict !== 'under_collected' && c.verdict !== 'over_collected') continue;
    out.push({
      id: `evt_${remittanceId}_${i + 1}`,
      type: 'estimate.mismatch',
      timestamp: receivedAt,
      data: {
        remittance_id: remittanceId,
        line: i + 1,
        estimate_id: l.estimate_id,
        payer_id: l.payer_id,
        group_id: l.group_id,
        benefit_structure: l.benefit_structure,
        verdict: c.verdict,
        difference: c.difference,
        member_share: c.member_share.total,
        estimated_member: c.estimated_member,
        payer_paid: c.payer_paid,
        estimated_payer: c.estimated_payer,
        cause: c.causes[0] ?? null,
        causes: c.causes,
        received_at: receivedAt,
      },
    });
  }
  return out;
}

/**
 * The 835's own arithmetic (005010X221A1 section 1.10.2, "balancing"): a line's charge is its payment
 * plus its adjustments; a claim's charge less its payment is the sum of its claim and line
 * adjustments; BPR02 is the claims' payments less the provider-level adjustments. A remittance that
 * does not balance is still read (payers send such files); each defect is a warning naming the claim's
 * position, never its patient control number, which may carry PHI.
 */
import { centsToDollars } from '../values.ts';
import type { Adjustment, Remittance } from './types.ts';

const sum = (xs: readonly Adjustment[]) => xs.reduce((t, a) => t + a.amount_cents, 0);
const usd = (c: number) => `$${centsToDollars(c)}`;

export function balanceWarnings(r: Remittance): string[] {
  const out: string[] = [];
  let paid = 0;
  r.claims.forEach((claim, i) => {
    paid += claim.paid_cents;
    const where = `claim ${i + 1} (segment ${claim.segment_index})`;
    claim.lines.forEach((line, j) => {
      const off = line.charge_cents - line.paid_cents - sum(line.adjustments);
      if (off !== 0)
        out.push(`${where}, line ${j + 1}: charge ${usd(line.charge_cents)} is not payment ${usd(line.paid_cents)} plus adjustments (off by ${usd(off)})`);
    });
    const adjusted = sum(claim.adjustments) + claim.lines.reduce((t, l) => t + sum(l.adjustments), 0);
    const off = claim.charge_cents - claim.paid_cents - adjusted;
    if (off !== 0) out.push(`${where}: charge ${usd(claim.charge_cents)} less payment ${usd(claim.paid_cents)} is not its adjustments ${usd(adjusted)}`);
  });
  const expected = paid - r.provider_adjustments.reduce((t, p) => t + p.amount_cents, 0);
  if (expected !== r.total_paid_cents) out.push(`BPR02 ${usd(r.total_paid_cents)} is not the claims' payments less provider adjustments (${usd(expected)})`);
  return out;
}

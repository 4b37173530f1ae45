/**
 * What a service line says the member owes, by kind (docs/remittances.md 'The member's share'): the
 * PR adjustments of the line, each by its reason's kind (deductible 1, coinsurance 2, copay 3, every
 * other reason 'other'). Claim-level PR adjustments are the claim's, not spread over its lines.
 */
import { memberOwes, shareKindOf } from './codes.ts';
import type { Adjustment, Claim, ServiceLine, ShareKind } from './types.ts';
import type { IsoDate } from '../../domain/coverage.ts';

export type MemberShare = Record<ShareKind, number> & { total: number };

export function memberShareOf(adjustments: readonly Adjustment[]): MemberShare {
  const share: MemberShare = { deductible: 0, coinsurance: 0, copay: 0, other: 0, total: 0 };
  for (const a of adjustments) {
    if (memberOwes(a.group) !== true) continue;
    share[shareKindOf(a.reason)] += a.amount_cents;
    share.total += a.amount_cents;
  }
  return share;
}

/** The line's date of service: its own DTM, else the claim's statement period start (the TR3's rule for a line without one). */
export function lineDate(claim: Claim, line: ServiceLine): IsoDate | null {
  return line.date_of_service ?? claim.statement_start;
}

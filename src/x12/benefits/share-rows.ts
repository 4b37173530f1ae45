/** The rows of a cost-share group read one figure at a time (share-group.ts): which are cost shares, the value they agree on, the deductible words they agree on. */
import { benefitRole } from '../code-tables/attributes.ts';
import type { Selectable } from './rows.ts';

/** EB01 A or B (eb01.json `role` coinsurance, copayment): a cost share. */
export function isCostShare(b: Selectable): boolean {
  const role = benefitRole(b.info);
  return role === 'copayment' || role === 'coinsurance';
}

/**
 * The one value the rows of EB01 `role` (eb01.json: copayment B, coinsurance A) state, from the earliest row stating it; or null with those
 * rows in conflict when they state more than one.
 */
export function agreed(
  rows: readonly Selectable[],
  role: 'copayment' | 'coinsurance',
  read: (b: Selectable) => number | null,
  conflicts: Selectable[],
): { value: number | null; from: Selectable | null } {
  // Each row's value is read once (an element slice and a decimal parse), again only for rows in conflict.
  let v: number | null = null;
  let from: Selectable | null = null;
  let same = true;
  for (const b of rows) {
    if (benefitRole(b.info) !== role) continue;
    const value = read(b);
    if (value === null) continue;
    if (from === null) {
      v = value;
      from = b;
    } else {
      if (value !== v) same = false;
      if (b.loop.seg.index < from.loop.seg.index) from = b;
    }
  }
  if (same) return { value: v, from };
  for (const b of rows) if (benefitRole(b.info) === role && read(b) !== null) conflicts.push(b);
  return { value: null, from: null };
}

const everyRow = () => true;

/**
 * The deductible hint of the rows `counts` keeps: what all of them that say one agree on, from the
 * earliest saying it; null when none says one or they disagree.
 */
export function hintOf(rows: readonly Selectable[], counts: (b: Selectable) => boolean = everyRow): { hint: boolean | null; from: Selectable | null } {
  let hint: boolean | null = null;
  let from: Selectable | null = null;
  for (const b of rows) {
    if (b.deductibleHint === null || !counts(b)) continue;
    if (from === null) {
      hint = b.deductibleHint;
      from = b;
    } else if (b.deductibleHint !== hint) return { hint: null, from: null };
    else if (b.loop.seg.index < from.loop.seg.index) from = b;
  }
  return { hint, from };
}

/** A copay and a coinsurance stated for different visits of the year (docs/estimates.md 1.1, "Cost shares by visit count"). */
import { benefitRole } from '../code-tables/attributes.ts';
import { el } from '../tokenizer.ts';
import { saysVisitRange, visitSplitOf } from './phrases.ts';
import { readAmount, readShare, type Selectable } from './rows.ts';
import type { ShareGroup } from './share-group-shape.ts';

const rangesVisits = (b: Selectable) => b.loop.msg.some((m) => saysVisitRange(el(m, 1)));

/**
 * A copay and a coinsurance of one group, either stated for some visits of the year only ("COPAY APPLIES
 * TO FIRST 5 VISITS", "COINSURANCE BEGINNING WITH 6TH VISIT"): alternatives by visit count, not one cost
 * share on top of the other, and which visit this is the 271 does not say (docs/estimates.md 1.1).
 */
export function byVisitCount(copay: Selectable | null, coinsurance: Selectable | null): boolean {
  return copay !== null && coinsurance !== null && (rangesVisits(copay) || rangesVisits(coinsurance));
}

/** Where a row's MSGs split the year's visits, and which part they put the row on (visitSplitOf); null: none, or several. */
export function splitOf(b: Selectable): { split: number; side: 'before' | 'after' } | null {
  let found: { split: number; side: 'before' | 'after' } | null = null;
  for (const m of b.loop.msg) {
    const s = visitSplitOf(el(m, 1));
    if (s === null) continue;
    if (found !== null && (found.split !== s.split || found.side !== s.side)) return null;
    found = s;
  }
  return found;
}

/**
 * A group whose copay and coinsurance are alternatives by visit count (byVisits), priced for visit number
 * `visit` of the year when the rows' MSGs say where the visits split and on which side each is ("FIRST 10
 * VISITS" / "BEGINNING WITH THE 11TH VISIT") and they agree: the one for this visit alone. Otherwise the
 * group as it is (both unknown). docs/estimates.md 1.1, "Cost shares by visit count".
 */
export function forVisit(group: ShareGroup, visit: number, warnings: string[]): ShareGroup {
  if (!group.byVisits || group.conflicts.length !== 2) return group;
  // The two alternatives: a copay and a coinsurance, or two copays (two coinsurances) of different amounts.
  const [copay, coins] = group.conflicts as [Selectable, Selectable];
  const c = splitOf(copay);
  const a = splitOf(coins);
  if (c === null && a === null) return group;
  if (c !== null && a !== null && (c.split !== a.split || c.side === a.side)) return group;
  const split = (c ?? a)!.split;
  const copaySide = c !== null ? c.side : a!.side === 'before' ? 'after' : 'before';
  const side = visit <= split ? 'before' : 'after';
  const row = side === copaySide ? copay : coins;
  const isCopay = benefitRole(row.info) === 'copayment';
  const value = isCopay ? readAmount(row) : readShare(row, warnings);
  if (value === null) return group;
  return {
    ...group,
    copayment: isCopay ? value : null,
    coinsurance: isCopay ? null : value,
    sources: { ...group.sources, copay: isCopay ? row : null, coinsurance: isCopay ? null : row },
    conflicts: [],
    byVisits: false,
    visitSplit: { visit, split, row },
  };
}

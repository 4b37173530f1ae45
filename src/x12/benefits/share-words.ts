/**
 * What the rows of a cost-share group say of its share in words (docs/estimates.md 1.1, "Cost shares related in
 * words"): the relations of their MSGs (cost-share-phrases.json), a benefit description saying the share is an office
 * visit's, a facility's charges only, and the office visit's share such words point to.
 */
import { benefitRole } from '../code-tables/attributes.ts';
import { el } from '../tokenizer.ts';
import { namesOfficeKind, shareRelations, type ShareRelation } from './phrases.ts';
import { costApplies, readAmount, readShareQuiet, type Net, type PlaceFit, type Selectable } from './rows.ts';
import { agreed, isCostShare } from './share-rows.ts';

const NONE: readonly ShareRelation[] = [];

/** What a row's MSGs say of its cost share (phrases.ts shareRelations); most rows carry none. */
export function relationsOf(b: Selectable): readonly ShareRelation[] {
  if (b.loop.msg.length === 0) return NONE;
  const out: ShareRelation[] = [];
  for (const m of b.loop.msg) for (const r of shareRelations(el(m, 1))) if (!out.includes(r)) out.push(r);
  return out;
}

/**
 * An EB01 D (benefit description, eb01.json `role` description) whose MSG says its service's cost share is the
 * primary care or the specialist office visit's ("PAID AT THE PRIMARY CARE COPAY"): a row of the cost-share group
 * at its rank stating that share (docs/estimates.md 1.1, "Cost shares related in words").
 */
export function describesSameAs(b: Selectable): boolean {
  if (benefitRole(b.info) !== 'description' || b.tier < 0) return false;
  const r = relationsOf(b);
  return r.includes('same_as_primary_care') || r.includes('same_as_specialist');
}

/** A row for a facility's charges only never prices a professional session (cost-share-phrases.json facility_only). */
export const facilityOnly = (b: Selectable) => {
  const r = relationsOf(b);
  return r.includes('facility_only') && !r.includes('professional_only');
};

/**
 * The office visit a row of the group says its cost share is the same as ("SAME AS PRIMARY CARE"): the copay
 * and the coinsurance the office visit (98) or plan (30) rows of the network state for it (their MSG names it),
 * when they agree; null values when none or several.
 */
export function officeShare(
  list: readonly Selectable[],
  kind: 'primary_care' | 'specialist',
  n: Net,
  fits: (p: PlaceFit) => boolean,
): { copay: { value: number | null; from: Selectable | null }; coins: { value: number | null; from: Selectable | null } } {
  const rows = list.filter(
    (b) => isCostShare(b) && b.tier >= 2 && costApplies(b, n) && fits(b.place) && b.loop.msg.some((m) => namesOfficeKind(el(m, 1), kind)),
  );
  const none: Selectable[] = [];
  return { copay: agreed(rows, 'copayment', readAmount, none), coins: agreed(rows, 'coinsurance', readShareQuiet, none) };
}

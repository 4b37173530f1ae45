/** The deductible and OOP max amounts an estimate binds to (individual vs family). */
import type { Accumulator, Cents, NetworkBenefits } from '../coverage.ts';

export type AccumulatorPair = { individual: Accumulator; family: Accumulator };

/**
 * An individual total of 0 beside a family total above 0 is a family-only (non-embedded) amount:
 * there is no individual accumulator, only the family's (docs/estimates.md section 3). Coverage has
 * no ranks: the 271 reader never reports family amounts beside an individual 0 stated for a more
 * specific service (x12/benefits/accumulators.ts), so the pair seen here is always of one scope.
 */
export function familyOnly(pair: AccumulatorPair): boolean {
  const fam = pair.family.total;
  return pair.individual.total === 0 && fam !== null && fam > 0;
}

/**
 * The remaining amount that binds: the smaller known remaining of individual and family.
 * - A family-only pair (above) binds to the family level alone.
 * - A level with a total of 0 and no remaining has 0 remaining.
 * - A level the payer does not report at all (total and remaining null) is ignored.
 * - A level with a known total but no remaining makes the result unknown (null), because that
 *   level might be the smaller one; except that a known remaining of 0 binds regardless, since
 *   nothing can be smaller.
 * - Neither level reported: unknown (null).
 * Negative remainings (payer over-reporting) are read as 0.
 */
export function bindingRemaining(pair: AccumulatorPair): Cents | null {
  const known: Cents[] = [];
  let unknownLevel = false;
  for (const level of familyOnly(pair) ? [pair.family] : [pair.individual, pair.family]) {
    if (level.remaining !== null) known.push(Math.max(0, level.remaining));
    else if (level.total === 0) known.push(0);
    else if (level.total !== null) unknownLevel = true;
  }
  if (known.length === 0) return null;
  const smallest = Math.min(...known);
  if (unknownLevel && smallest > 0) return null;
  return smallest;
}

/** The accumulator fields of the estimate, straight from the selected network's benefits. */
export interface AccumulatorFields {
  deductible: Cents | null;
  remaining_deductible: Cents | null;
  family_deductible: Cents | null;
  family_remaining_deductible: Cents | null;
  oop_max: Cents | null;
  remaining_oop_max: Cents | null;
  family_oop_max: Cents | null;
  family_remaining_oop_max: Cents | null;
}

/** Reports individual totals, the binding remaining, and the family values; unknown or absent is null, never 0. */
export function accumulatorFields(b: NetworkBenefits | null): AccumulatorFields {
  const d = b?.deductible ?? null;
  const o = b?.oop_max ?? null;
  return {
    deductible: d && !familyOnly(d) ? d.individual.total : null,
    remaining_deductible: d ? bindingRemaining(d) : null,
    family_deductible: d?.family.total ?? null,
    family_remaining_deductible: d?.family.remaining ?? null,
    oop_max: o && !familyOnly(o) ? o.individual.total : null,
    remaining_oop_max: o ? bindingRemaining(o) : null,
    family_oop_max: o?.family.total ?? null,
    family_remaining_oop_max: o?.family.remaining ?? null,
  };
}

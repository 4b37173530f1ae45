/**
 * Classification of a network's cost share into the twelve BENEFIT_STRUCTURES (docs/estimates.md section 2).
 * The rules, and the choices for the combinations the twelve do not name, are in docs/estimates.md.
 */
import type { NetworkBenefits } from '../coverage.ts';
import type { BenefitStructure } from '../schemas/responses.ts';

/** What classification reads: the cost share, the deductible flag and whether a deductible / OOP max is reported. */
export type StructureInput = Pick<NetworkBenefits, 'copayment' | 'coinsurance' | 'deductible_applies' | 'deductible' | 'oop_max'>;

/** The cost share is unknown when neither a copay nor a coinsurance is reported. */
export function costShareKnown(b: Pick<NetworkBenefits, 'copayment' | 'coinsurance'>): boolean {
  return b.copayment !== null || b.coinsurance !== null;
}

/** A copay counts only when it is above 0; null next to a known coinsurance means "no copay". */
export function hasCopay(b: Pick<NetworkBenefits, 'copayment'>): boolean {
  return b.copayment !== null && b.copayment > 0;
}

/** A coinsurance counts only when it is above 0 percent; null next to a known copay means "no coinsurance". */
export function hasCoinsurance(b: Pick<NetworkBenefits, 'coinsurance'>): boolean {
  return b.coinsurance !== null && b.coinsurance > 0;
}

/** A deductible stated as $0: a total of 0 and, at every level, no amount above 0. */
function isZero(d: NonNullable<NetworkBenefits['deductible']>): boolean {
  const levels = [d.individual, d.family];
  return levels.some((a) => a.total === 0) && levels.every((a) => !(a.total !== null && a.total > 0) && !(a.remaining !== null && a.remaining > 0));
}

/**
 * The cost share starts only once the deductible is met: the payer says so (deductible_applies)
 * and reports a deductible at all. A flag without any deductible, or beside a deductible of $0, has
 * nothing to meet, so it is treated as "no deductible".
 */
export function deductibleApplies(b: Pick<NetworkBenefits, 'deductible_applies' | 'deductible'>): boolean {
  return b.deductible_applies && b.deductible !== null && !isZero(b.deductible);
}

/**
 * One of the twelve structures, or null when the cost share is unknown.
 * Copay and coinsurance together without an OOP max are not among the twelve; they are reported
 * as the coinsurance structure (the percentage is the part that grows with the session cost, and
 * "no OOP Max" stays true); the copay itself is still returned in `copayment`.
 */
export function classifyBenefitStructure(b: StructureInput): BenefitStructure | null {
  if (!costShareKnown(b)) return null;
  const copay = hasCopay(b);
  const coins = hasCoinsurance(b);
  const afterDed = deductibleApplies(b);
  const oop = b.oop_max !== null;

  if (!copay && !coins) return afterDed ? 'Fully covered after deductible' : 'Fully covered';
  if (copay && coins && oop) {
    return afterDed ? 'Copay and coinsurance after deductible, with OOP Max' : 'Copay and coinsurance, no deductible, with OOP Max';
  }
  if (coins) {
    if (afterDed) return oop ? 'Coinsurance after deductible, with OOP Max' : 'Coinsurance after deductible, no OOP Max';
    return oop ? 'Coinsurance, no deductible, with OOP Max' : 'Coinsurance, no deductible, no OOP Max';
  }
  if (afterDed) return oop ? 'Copay after deductible, with OOP Max' : 'Copay after deductible, no OOP Max';
  return oop ? 'Copay, no deductible, with OOP Max' : 'Copay, no deductible, no OOP Max';
}

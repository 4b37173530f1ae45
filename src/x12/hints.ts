/**
 * Free-text MSG hints: X12 has no code for these facts, so payers say them in MSG text. The 271
 * builder writes the canonical texts below; the normalizer recognizes them and common variants,
 * and keeps the canonical ones out of Coverage.messages (they are fully represented by fields).
 */
export const HINT = {
  marketplace: 'QUALIFIED HEALTH PLAN',
  bluecard: 'BLUECARD',
  hdhp: 'HIGH DEDUCTIBLE HEALTH PLAN',
  deductibleWaived: 'DEDUCTIBLE WAIVED',
  deductibleApplies: 'DEDUCTIBLE APPLIES',
} as const;

const CANONICAL: ReadonlySet<string> = new Set(Object.values(HINT));

export function isCanonicalHint(text: string): boolean {
  return CANONICAL.has(text.trim().toUpperCase());
}

const WAIVED = /DEDUCTIBLE (IS )?WAIVED|WAIVES? (THE )?DEDUCTIBLE|(COPAY|COPAYMENT|COINSURANCE|COST SHARE) APPLIES BEFORE (THE )?DEDUCTIBLE|NOT SUBJECT TO (THE )?DEDUCTIBLE|DEDUCTIBLE DOES NOT APPLY/;
const APPLIES = /DEDUCTIBLE APPLIES|SUBJECT TO (THE )?DEDUCTIBLE|AFTER (THE )?DEDUCTIBLE/;

/** What a MSG text says about the deductible applying before the cost share; null: nothing. */
export function deductibleHint(text: string): boolean | null {
  const t = text.toUpperCase();
  if (t.indexOf('DEDUCTIBLE') < 0) return null;
  if (WAIVED.test(t)) return false;
  if (APPLIES.test(t)) return true;
  return null;
}

export function isMarketplaceHint(text: string): boolean {
  const t = text.toUpperCase();
  return t.includes('MARKETPLACE') || t.includes('QUALIFIED HEALTH PLAN');
}

export function isBluecardHint(text: string): boolean {
  const t = text.toUpperCase();
  return t.includes('BLUECARD') || t.includes('BLUE CARD');
}

export function isHdhpHint(text: string): boolean {
  const t = text.toUpperCase();
  return t.includes('HIGH DEDUCTIBLE') || /\bHDHP\b/.test(t);
}

/**
 * Free-text MSG hints: X12 has no code for these facts, so payers say them in MSG text. The 271
 * builder writes the canonical texts below; the normalizer recognizes them and common variants,
 * and keeps the canonical ones out of Coverage.messages (they are fully represented by fields).
 */
import { saysCue, saysDeductible } from './benefits/phrases.ts';
import { msgWords } from './benefits/msg-words.ts';

export const HINT = {
  marketplace: 'QUALIFIED HEALTH PLAN',
  bluecard: 'BLUECARD',
  hdhp: 'HIGH DEDUCTIBLE HEALTH PLAN',
  deductibleWaived: 'DEDUCTIBLE WAIVED',
  deductibleApplies: 'DEDUCTIBLE APPLIES',
} as const;

const CANONICAL: readonly string[] = Object.values(HINT);

export function isCanonicalHint(text: string): boolean {
  // Comparing against five literals beats hashing a long message for a Set lookup.
  for (const h of CANONICAL) if (text === h) return true;
  return false;
}

export interface MessageHints {
  /** What the text says about the deductible applying before the cost share; null: nothing. */
  deductible: boolean | null;
  marketplace: boolean;
  bluecard: boolean;
  hdhp: boolean;
}

const ANY_HINT = /DEDUCTIBLE|MARKETPLACE|QUALIFIED HEALTH PLAN|QHP|EXCHANGE|BLUE ?CARD|HDHP|HSA|HEALTH SAVINGS/i;
const NO_HINTS: MessageHints = { deductible: null, marketplace: false, bluecard: false, hdhp: false };

const CANONICAL_HINTS: readonly [string, MessageHints][] = [
  [HINT.marketplace, { deductible: null, marketplace: true, bluecard: false, hdhp: false }],
  [HINT.bluecard, { deductible: null, marketplace: false, bluecard: true, hdhp: false }],
  [HINT.hdhp, { deductible: null, marketplace: false, bluecard: false, hdhp: true }],
  [HINT.deductibleWaived, { deductible: false, marketplace: false, bluecard: false, hdhp: false }],
  [HINT.deductibleApplies, { deductible: true, marketplace: false, bluecard: false, hdhp: false }],
];

/** The hints of one MSG text, on a row for `network` (EB12 Y in, N out; null both or unsaid). */
export function readHints(text: string, network: 'in' | 'out' | null = null): MessageHints {
  for (const [canonical, hints] of CANONICAL_HINTS) if (text === canonical) return hints;
  const t = msgWords(text);
  if (!ANY_HINT.test(t)) return NO_HINTS;
  return {
    deductible: saysDeductible(t, network),
    marketplace: saysCue(t, 'marketplace'),
    bluecard: t.includes('BLUECARD') || t.includes('BLUE CARD'),
    hdhp: saysCue(t, 'hdhp'),
  };
}

/**
 * The MSG texts a 271's rows carry, but for the canonical hints the builder writes (they are fields),
 * and the flags any of them states (marketplace, BlueCard, HDHP).
 */
export function messagesOf(rows: readonly { messages: readonly string[]; marketplace: boolean; bluecard: boolean; hdhp: boolean }[]): {
  flags: { is_marketplace: boolean; is_bluecard: boolean; is_hdhp: boolean };
  messages: string[];
} {
  const flags = { is_marketplace: false, is_bluecard: false, is_hdhp: false };
  const messages: string[] = [];
  for (const b of rows) {
    if (b.messages.length === 0) continue;
    flags.is_marketplace ||= b.marketplace;
    flags.is_bluecard ||= b.bluecard;
    flags.is_hdhp ||= b.hdhp;
    for (const text of b.messages) if (!isCanonicalHint(text)) messages.push(text);
  }
  return { flags, messages };
}

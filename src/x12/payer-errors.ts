/**
 * What a payer (or a clearinghouse) reported, for the caller: `payer_errors` of error and 206 bodies.
 * Every AAA reason is sorted into one category, in one table (docs/payer-errors.md):
 *
 * | category | AAA03 | meaning for the front desk |
 * |---|---|---|
 * | member | 58 64 65 67 68 69 70 71 72 73 74 75 76 77 78 | correct the patient's data (ID, name, DOB) and check again |
 * | provider | 41 43 44 45 46 47 48 49 50 51 52 53 97 | the practice's NPI/name/enrollment: the payer does not accept it |
 * | route | 42 79 80 | the connection could not ask this payer (down, or unknown on this route): another route may work |
 * | input | 15 33 54 55 56 57 60 61 62 63 T4 | the request itself (service type, dates): correct it |
 * | payer | anything else (04 quota, AA/AE/AF... authorizations) | the payer's own condition |
 *
 * Words come from our tables, never from the payer's or vendor's prose (which may name the member).
 */
import type { PayerErrorEntry } from '../domain/schemas/responses.ts';
import { AAA_FOLLOWUPS, AAA_REASONS } from './aaa.ts';
import { codeIn } from './code-tables/index.ts';
import { el, tokenize } from './tokenizer.ts';

/** The schema (and what each field means) is PayerErrorEntry in src/domain/schemas/responses.ts. */
export type PayerErrorItem = PayerErrorEntry;
export type PayerErrorCategory = PayerErrorEntry['category'];

const CATEGORY: Readonly<Record<string, PayerErrorCategory>> = {
  ...Object.fromEntries(['58', '64', '65', '67', '68', '69', '70', '71', '72', '73', '74', '75', '76', '77', '78'].map((c) => [c, 'member'])),
  ...Object.fromEntries(['41', '43', '44', '45', '46', '47', '48', '49', '50', '51', '52', '53', '97'].map((c) => [c, 'provider'])),
  ...Object.fromEntries(['42', '79', '80'].map((c) => [c, 'route'])),
  ...Object.fromEntries(['15', '33', '54', '55', '56', '57', '60', '61', '62', '63', 'T4'].map((c) => [c, 'input'])),
};

export function payerErrorCategory(code: string): PayerErrorCategory {
  return Object.hasOwn(CATEGORY, code) ? CATEGORY[code]! : 'payer';
}

const sentence = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function payerError(code: string, followup: string | null, loop: string | null): PayerErrorItem {
  const safe = /^[0-9A-Z]{1,3}$/.test(code) ? code : '';
  const next = followup && Object.hasOwn(AAA_FOLLOWUPS, followup) ? AAA_FOLLOWUPS[followup]! : null;
  return {
    code: safe,
    description: sentence(Object.hasOwn(AAA_REASONS, safe) ? AAA_REASONS[safe]! : 'Unlisted reject reason'),
    followup: next ? sentence(next) : null,
    loop: loop && /^2[01][01]0[A-D]$/.test(loop) ? loop : null,
    category: payerErrorCategory(safe),
  };
}

const LEVEL_LETTER: Readonly<Record<string, string>> = { '20': 'A', '21': 'B', '22': 'C', '23': 'D' };

/** Every AAA segment of an X12 answer, with the loop it sat in. Empty when the text is not X12. */
export function aaaPayerErrors(x12: string): PayerErrorItem[] {
  if (!x12.includes('AAA')) return [];
  const tokens = tokenize(x12);
  if (!tokens.ok) return [];
  const out: PayerErrorItem[] = [];
  let letter: string | null = null;
  let stage: '2000' | '2100' | '2110' = '2000';
  for (const seg of tokens.value.segments) {
    if (seg.id === 'HL') {
      letter = codeIn(LEVEL_LETTER, el(seg, 3)) ?? null;
      stage = '2000';
    } else if (seg.id === 'NM1' && stage === '2000') stage = '2100';
    else if (seg.id === 'EB') stage = '2110';
    else if (seg.id === 'AAA') out.push(payerError(el(seg, 3), el(seg, 4) || null, letter ? `${stage}${letter}` : null));
  }
  return out;
}

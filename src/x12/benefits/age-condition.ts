/**
 * An age a payer's MSG limits a row to ("MEMBERS UNDER AGE 19", "COPAY APPLIES TO RECIPIENTS AGE 21 AND OLDER"),
 * checked against the patient's age on the date of service (their loop's DMG date of birth): docs/estimates.md 1.1,
 * "The benefit matrix". A negated or unreadable statement is no condition this reads (null).
 */
import type { IsoDate } from '../../domain/coverage.ts';
import AGE_WORDS from './age-words.json' with { type: 'json' };
import { msgWords } from './msg-words.ts';

/** The ages a condition admits: from `min` (inclusive) below `max` (exclusive); null: open. */
export interface AgeRange {
  min: number | null;
  max: number | null;
}

const CONDITIONS: readonly { re: RegExp; range: (n: number) => AgeRange }[] = [
  { re: /\b(?:UNDER|YOUNGER THAN|BELOW|LESS THAN)\s+(?:THE\s+)?AGES?\s+(?:OF\s+)?(\d{1,2})\b/, range: (n) => ({ min: null, max: n }) },
  { re: /\bAGES?\s+(\d{1,2})\s+(?:AND|OR)\s+(?:UNDER|YOUNGER|BELOW)\b/, range: (n) => ({ min: null, max: n + 1 }) },
  { re: /\bAGES?\s+(\d{1,2})\s+(?:AND|OR)\s+(?:OLDER|OVER|ABOVE)\b/, range: (n) => ({ min: n, max: null }) },
  { re: /\b(?:OVER|OLDER THAN)\s+(?:THE\s+)?AGES?\s+(?:OF\s+)?(\d{1,2})\b/, range: (n) => ({ min: n + 1, max: null }) },
];
const NEGATION = /\b(?:NOT|EXCEPT|EXCLUDING|NO|NON)\b|N'T\b/;

/** The age range an MSG states, or null when it states none this reads (or negates one). */
export function ageCondition(text: string): AgeRange | null {
  const t = msgWords(text);
  if (NEGATION.test(t)) return null;
  let out: AgeRange | null = null;
  for (const { re, range } of CONDITIONS) {
    const m = re.exec(t);
    if (!m) continue;
    if (out !== null) return null;
    out = range(Number(m[1]));
  }
  return out;
}

const WHO = new RegExp(`^(?:${AGE_WORDS.who})$`);

/**
 * The age range an MSG states when it states nothing else (age-words.json `who`: the words that say whom the row is for),
 * or null: "MEMBERS UNDER AGE 19" is a range; "COPAY WAIVED FOR MEMBERS UNDER AGE 19" is more than an age.
 */
export function ageOnly(text: string): AgeRange | null {
  const range = ageCondition(text);
  if (range === null) return null;
  let rest = msgWords(text);
  for (const { re } of CONDITIONS) rest = rest.replace(re, ' ');
  const words = rest.split(/[^A-Z0-9'-]+/).filter((w) => w !== '');
  return words.every((w) => WHO.test(w)) ? range : null;
}

/** Whole years from `dob` to `on`. */
export function ageOn(dob: IsoDate, on: IsoDate): number {
  const years = Number(on.slice(0, 4)) - Number(dob.slice(0, 4));
  return on.slice(5) < dob.slice(5) ? years - 1 : years;
}

export const admits = (r: AgeRange, age: number) => (r.min === null || age >= r.min) && (r.max === null || age < r.max);

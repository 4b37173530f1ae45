/**
 * Makes free text safe to write into an X12 element: transliterated to plain upper-case ASCII,
 * with any delimiter or character outside the X12 character sets replaced by a space.
 */
import { transliterate } from '../domain/names.ts';
import type { Delimiters } from './delimiters.ts';

const PUNCTUATION = new Set('!"&\'()*+,-./:;?=%@#$_[]{}<>|^~\\`');

export function cleanText(value: string | null | undefined, d: Delimiters, max: number): string {
  if (!value) return '';
  const folded = transliterate(value);
  let out = '';
  let space = false;
  for (const ch of folded) {
    const c = ch.charCodeAt(0);
    const keep =
      ch.length === 1 &&
      ((c >= 65 && c <= 90) || (c >= 48 && c <= 57) || PUNCTUATION.has(ch)) &&
      ch !== d.element &&
      ch !== d.component &&
      ch !== d.segment &&
      ch !== d.repetition;
    if (keep) {
      if (space && out !== '') out += ' ';
      out += ch;
      space = false;
    } else {
      space = true;
    }
  }
  return out.slice(0, max).trimEnd();
}

/** Digits only (phone numbers, NPIs as sent by callers with dashes or spaces); NFKC first, as cleanText does, so "①" is a 1 in both. */
export function digitsOnly(value: string | null | undefined, max: number): string {
  const text = value ?? '';
  return (/^[\x00-\x7f]*$/.test(text) ? text : text.normalize('NFKC')).replace(/[^0-9]/g, '').slice(0, max);
}

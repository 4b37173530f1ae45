/**
 * Makes free text safe to write into an X12 element: transliterated to plain upper-case ASCII,
 * with any delimiter or character outside the X12 character sets replaced by a space.
 */
import { transliterate } from '../domain/names.ts';
import type { Delimiters } from './delimiters.ts';

const PUNCTUATION = '!"&\'()*+,-./:;?=%@#$_[]{}<>|^~\\`';

/** Per delimiter set: which ASCII codes an element may carry as they are (1) or not (0). */
const keptCodes = new WeakMap<Delimiters, Uint8Array>();

/** The last set asked for (nearly always DEFAULT_DELIMITERS): no WeakMap lookup per element. */
let lastDelimiters: Delimiters | null = null;
let lastKept: Uint8Array | null = null;

function keptFor(d: Delimiters): Uint8Array {
  if (d === lastDelimiters) return lastKept!;
  let kept = keptCodes.get(d);
  if (!kept) {
    kept = buildKept(d);
    keptCodes.set(d, kept);
  }
  lastDelimiters = d;
  lastKept = kept;
  return kept;
}

function buildKept(d: Delimiters): Uint8Array {
  const kept = new Uint8Array(128);
  for (let c = 65; c <= 90; c++) kept[c] = 1;
  for (let c = 48; c <= 57; c++) kept[c] = 1;
  for (const ch of PUNCTUATION) kept[ch.charCodeAt(0)] = 1;
  for (const ch of [d.element, d.component, d.segment, d.repetition]) if (ch) kept[ch.charCodeAt(0)] = 0;
  return kept;
}

export function cleanText(value: string | null | undefined, d: Delimiters, max: number): string {
  if (!value) return '';
  const folded = transliterate(value);
  const kept = keptFor(d);
  // Every other character, and every run of them, becomes one space; none leads or trails.
  let out = '';
  let from = 0;
  let space = false;
  const n = folded.length;
  for (let i = 0; i < n; i++) {
    const c = folded.charCodeAt(i);
    if (c < 128 && kept[c] === 1) {
      if (space) {
        if (out !== '') out += ' ';
        from = i;
        space = false;
      }
      continue;
    }
    if (!space) {
      out += folded.slice(from, i);
      space = true;
    }
  }
  if (!space) out += folded.slice(from);
  return out.length > max ? out.slice(0, max).trimEnd() : out;
}

/** Digits only (phone numbers, NPIs as sent by callers with dashes or spaces); NFKC first, as cleanText does, so "①" is a 1 in both. */
export function digitsOnly(value: string | null | undefined, max: number): string {
  const text = value ?? '';
  return (/^[\x00-\x7f]*$/.test(text) ? text : text.normalize('NFKC')).replace(/[^0-9]/g, '').slice(0, max);
}

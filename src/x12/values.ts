/** Conversions between X12 data element formats and the domain's: dates, money, percents, numbers. */
import type { IsoDate } from '../domain/coverage.ts';
import { daysInMonth } from '../domain/formats.ts';

/** CCYYMMDD -> YYYY-MM-DD, or null when it is not a real date. */
export function d8ToIso(v: string): IsoDate | null {
  if (v.length !== 8) return null;
  let y = 0;
  let m = 0;
  let d = 0;
  for (let i = 0; i < 8; i++) {
    const c = v.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return null;
    if (i < 4) y = y * 10 + c;
    else if (i < 6) m = m * 10 + c;
    else d = d * 10 + c;
  }
  if (y < 1800 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return null;
  return `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}`;
}

export function isoToD8(iso: string): string {
  // YYYY-MM-DD, as every date the service holds is: its digits without a regex.
  if (iso.length === 10 && iso.charCodeAt(4) === 45 && iso.charCodeAt(7) === 45) {
    let digits = true;
    for (let i = 0; i < 10; i++) {
      const c = iso.charCodeAt(i);
      if (i !== 4 && i !== 7 && (c < 48 || c > 57)) digits = false;
    }
    if (digits) return iso.slice(0, 4) + iso.slice(5, 7) + iso.slice(8, 10);
  }
  return iso.replace(/[^0-9]/g, '').slice(0, 8);
}

export interface DateRange {
  start: IsoDate;
  end: IsoDate | null;
}

/** A DTP date: D8 (one date) or RD8 (CCYYMMDD-CCYYMMDD). */
export function readDtpDate(format: string, value: string): DateRange | null {
  if (format === 'D8') {
    const d = d8ToIso(value);
    return d ? { start: d, end: null } : null;
  }
  if (format === 'RD8') {
    const dash = value.indexOf('-');
    if (dash < 0) return null;
    const start = d8ToIso(value.slice(0, dash));
    const end = d8ToIso(value.slice(dash + 1));
    return start ? { start, end } : null;
  }
  return null;
}

function isDigits(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Splits an X12 decimal ("-12.5", ".25", "100") into sign, integer digits and fraction digits. */
function splitDecimal(v: string): { neg: boolean; int: string; frac: string } | null {
  let s = v.trim();
  let neg = false;
  if (s.startsWith('-')) {
    neg = true;
    s = s.slice(1);
  } else if (s.startsWith('+')) {
    s = s.slice(1);
  }
  const dot = s.indexOf('.');
  const int = dot < 0 ? s : s.slice(0, dot);
  const frac = dot < 0 ? '' : s.slice(dot + 1);
  if ((int === '' && frac === '') || (int !== '' && !isDigits(int)) || (frac !== '' && !isDigits(frac))) return null;
  return { neg, int: int || '0', frac };
}

/**
 * Dollars as sent in EB07 ("10.00", "10.5", "-3", ".25") to integer cents, accumulated digit by
 * digit, never through a float. Sub-cent digits round half up. null for anything else.
 */
export function dollarsToCents(v: string): number | null {
  let i = 0;
  let n = v.length;
  while (i < n && v.charCodeAt(i) === 32) i++;
  while (n > i && v.charCodeAt(n - 1) === 32) n--;
  let neg = false;
  if (i < n && (v.charCodeAt(i) === 45 || v.charCodeAt(i) === 43)) neg = v.charCodeAt(i++) === 45;
  let cents = 0;
  let digits = 0;
  let fraction = -1;
  for (; i < n; i++) {
    const c = v.charCodeAt(i);
    if (c === 46 && fraction < 0) {
      fraction = 0;
      continue;
    }
    if (c < 48 || c > 57) return null;
    digits++;
    if (fraction < 0) {
      if (digits > 13) return null;
      cents = cents * 10 + (c - 48);
    } else if (fraction < 2) {
      cents = cents * 10 + (c - 48);
      fraction++;
    } else if (fraction === 2) {
      if (c >= 53) cents += 1;
      fraction++;
    }
  }
  if (digits === 0) return null;
  for (let f = fraction < 0 ? 0 : fraction; f < 2; f++) cents *= 10;
  return neg ? -cents : cents;
}

export function centsToDollars(cents: number): string {
  const neg = cents < 0;
  const abs = Math.abs(Math.round(cents));
  const whole = Math.floor(abs / 100);
  const frac = abs % 100;
  const s = frac === 0 ? String(whole) : `${whole}.${String(frac).padStart(2, '0')}`;
  return neg ? `-${s}` : s;
}

/** Moves the decimal point of a digit string: shift > 0 multiplies by 10^shift. */
function shiftDecimal(int: string, frac: string, shift: number): string {
  const digits = int + frac;
  let point = int.length + shift;
  let all = digits;
  if (point > all.length) all = all.padEnd(point, '0');
  if (point < 0) {
    all = '0'.repeat(-point) + all;
    point = 0;
  }
  let i = all.slice(0, point).replace(/^0+/, '') || '0';
  const f = all.slice(point).replace(/0+$/, '');
  if (i === '') i = '0';
  return f ? `${i}.${f}` : i;
}

/**
 * EB08 decimal share ("0.2", ".15", "1") to percent points (20, 15, 100) without float error:
 * the digits are read as one integer and divided by an exact power of ten, which rounds once to
 * the double nearest the decimal value, as Number("12.5") would.
 */
export function shareToPercent(v: string): number | null {
  let digits = 0;
  let count = 0;
  let fraction = -1;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c === 46 && fraction < 0) {
      fraction = 0;
      continue;
    }
    if (c < 48 || c > 57 || ++count > 15) return null;
    digits = digits * 10 + (c - 48);
    if (fraction >= 0) fraction++;
  }
  if (count === 0) return null;
  const scale = fraction < 0 ? 0 : fraction;
  return scale <= 2 ? digits * 10 ** (2 - scale) : digits / 10 ** (scale - 2);
}

export function percentToShare(pct: number): string {
  const p = splitDecimal(String(pct));
  if (!p) return '0';
  return shiftDecimal(p.int, p.frac, -2);
}

/** EB10 quantity and similar plain decimals. */
export function readNumber(v: string): number | null {
  const p = splitDecimal(v);
  if (!p) return null;
  const n = Number(`${p.int}${p.frac ? `.${p.frac}` : ''}`);
  return p.neg ? -n : n;
}

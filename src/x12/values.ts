/** Conversions between X12 data element formats and the domain's: dates, money, percents, numbers. */
import type { IsoDate } from '../domain/coverage.ts';
import { daysInMonth } from '../domain/formats.ts';

/** CCYYMMDD -> YYYY-MM-DD, or null when it is not a real date. */
export function d8ToIso(v: string): IsoDate | null {
  if (v.length !== 8) return null;
  for (let i = 0; i < 8; i++) {
    const c = v.charCodeAt(i);
    if (c < 48 || c > 57) return null;
  }
  const y = Number(v.slice(0, 4));
  const m = Number(v.slice(4, 6));
  const d = Number(v.slice(6, 8));
  if (y < 1800 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return null;
  return `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}`;
}

export function isoToD8(iso: string): string {
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

/** Dollars as sent in EB07 ("10.00", "10.5", "1500") to integer cents, from the digits, never through a float. */
export function dollarsToCents(v: string): number | null {
  const p = splitDecimal(v);
  if (!p || p.int.length > 13) return null;
  const frac = (p.frac + '00').slice(0, 2);
  let cents = Number(p.int) * 100 + Number(frac);
  // Sub-cent digits: round half up on the third fraction digit.
  if (p.frac.length > 2 && p.frac.charCodeAt(2) >= 53) cents += 1;
  return p.neg ? -cents : cents;
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
  let f = all.slice(point).replace(/0+$/, '');
  if (i === '') i = '0';
  return f ? `${i}.${f}` : i;
}

/** EB08 decimal share ("0.2", ".15", "1") to percent points (20, 15, 100) without float error. */
export function shareToPercent(v: string): number | null {
  const p = splitDecimal(v);
  if (!p || p.neg) return null;
  return Number(shiftDecimal(p.int, p.frac, 2));
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

/**
 * Cells as a spreadsheet exports them, read into the API's forms: dollars ("$1,250.00", "150")
 * into cents, US dates ("3/14/1988") into YYYY-MM-DD. A value that could mean two things is
 * refused with the reason, never guessed.
 */

export type Cell<T> = { ok: true; value: T } | { ok: false; message: string };

const MAX_CENTS = 999_999_999;

/** Digits with optional thousands separators in the right places: "1250" or "1,250", not "1,25". */
const GROUPED = /^(\d{1,3}(,\d{3})+|\d+)$/;

/** Numbers Excel shows in scientific notation when a long ID or NPI column is not formatted as text. */
export const looksShortenedByExcel = (value: string): boolean => /^\d(\.\d+)?E\+\d+$/i.test(value.trim());

/** "$1,250.00", "1250", "150.5", "$150" as cents. */
export function dollarsToCents(text: string): Cell<string> {
  const value = text.trim().replace(/^\$\s*/, '');
  if (value.startsWith('-') || value.startsWith('(')) return { ok: false, message: `"${text}" is negative; a session cost is $0.00 or more` };
  const [whole = '', fraction, ...rest] = value.split('.');
  if (rest.length > 0 || !GROUPED.test(whole) || (fraction !== undefined && !/^\d{1,2}$/.test(fraction))) {
    return { ok: false, message: `"${text}" is not an amount in dollars such as 150, 150.00, $150.00 or 1,250.00` };
  }
  const cents = BigInt(whole.replace(/,/g, '')) * 100n + BigInt((fraction ?? '').padEnd(2, '0'));
  if (cents > BigInt(MAX_CENTS)) return { ok: false, message: `"${text}" is more than $${(MAX_CENTS / 100).toLocaleString('en-US')}` };
  return { ok: true, value: cents.toString() };
}

/** Cents: digits, with thousands separators allowed. Dollar signs or decimals are refused: they would be read wrong by 100 times. */
export function centsCell(text: string, column: string): Cell<string> {
  const value = text.trim();
  if (GROUPED.test(value)) return { ok: true, value: value.replace(/,/g, '') };
  if (/^\$|\.\d*$/.test(value)) {
    return {
      ok: false,
      message: `"${text}" looks like dollars, but ${column} is in cents (15000 is $150.00): write cents, or name the column session_cost to give dollars`,
    };
  }
  return { ok: false, message: `"${text}" is not a number of cents (15000 is $150.00)` };
}

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

function isoOf(year: number, month: number, day: number, text: string): Cell<string> {
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return { ok: false, message: `"${text}" is not a real calendar date` };
  return { ok: true, value: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}` };
}

/** YYYY-MM-DD (or YYYY-M-D), MM/DD/YYYY or M/D/YYYY as YYYY-MM-DD. Two-digit years and day-first dates are refused. */
export function dateCell(text: string): Cell<string> {
  const value = text.trim();
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(value);
  if (m) return isoOf(Number(m[1]), Number(m[2]), Number(m[3]), text);
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(value);
  if (m) {
    if (m[3]!.length === 2) return { ok: false, message: `"${text}" has a two-digit year; write the year in full (MM/DD/YYYY or YYYY-MM-DD)` };
    if (Number(m[1]) > 12 && Number(m[2]) <= 12) return { ok: false, message: `"${text}" reads as day/month; write dates as MM/DD/YYYY or YYYY-MM-DD` };
    return isoOf(Number(m[3]), Number(m[1]), Number(m[2]), text);
  }
  return { ok: false, message: `"${text}" is not a date in MM/DD/YYYY or YYYY-MM-DD` };
}

/**
 * Written first in a results file: Excel reads a CSV as UTF-8 only when it starts with a byte-order
 * mark, and shows "José" as "JosÃ©" otherwise. Other readers skip it.
 */
export const CSV_BOM = '\uFEFF';

/**
 * A member ID as a results cell that Excel keeps as typed. Excel opens "00123" as the number 123
 * and "12E45" or a 16-digit ID in scientific notation, whatever quotes the CSV puts around them;
 * a leading apostrophe is not honoured in a CSV (it is shown). A formula that is one string
 * constant, ="00123", is shown as the text 00123, and is written only for IDs of digits (and one
 * E), so nothing else in it can run. csvLine writes it as it is (csv.ts).
 */
export function excelSafeId(id: string | null): string | null {
  if (id === null || !EXCEL_NUMBER_LIKE.test(id)) return id;
  return `="${id}"`;
}

/** IDs Excel would change: a leading zero, more digits than it keeps (15), or digits read as an exponent. */
const EXCEL_NUMBER_LIKE = /^(0\d*|\d{12,}|\d+E\d+)$/i;

/** The form excelSafeId writes, which csvLine lets through unchanged. */
export const EXCEL_TEXT_FORMULA = /^="[0-9A-Za-z]+"$/;

/**
 * The upload's file name as the results download is named after it: its extension and folders
 * dropped, then letters, digits, dots, hyphens and underscores kept (others become a hyphen), at
 * most 60 characters; null when nothing is left.
 */
export function uploadName(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const base = raw.split(/[\\/]/).pop() ?? '';
  const stem = base.replace(/\.[A-Za-z0-9]{1,5}$/, '');
  const clean = stem
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 60);
  return clean === '' ? null : clean;
}

/** "schedule-2026-11-26-results.csv": the upload's name (or "batch") and the UTC day the batch was created. */
export const resultsFileName = (name: string | null | undefined, createdAt: string): string => `${name ?? 'batch'}-${createdAt.slice(0, 10)}-results.csv`;

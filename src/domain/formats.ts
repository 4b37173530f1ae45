/** String formats the request schemas name; registered with the validator by the HTTP layer. */

/**
 * A real calendar date in YYYY-MM-DD from 1900 on, as y * 10000 + m * 100 + d; -1 otherwise.
 * Read by character code: request validation and the plan rules call it for every date they see.
 */
export function isoDateParts(value: string): number {
  if (value.length !== 10 || value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45) return -1;
  let n = 0;
  for (let i = 0; i < 10; i++) {
    if (i === 4 || i === 7) continue;
    const c = value.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  const year = Math.floor(n / 10000);
  const month = Math.floor(n / 100) % 100;
  const day = n % 100;
  if (year < 1900 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return -1;
  return n;
}

/** A real calendar date in YYYY-MM-DD, from 1900 on. */
export function isIsoDate(value: string): boolean {
  return isoDateParts(value) >= 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** A NUCC health care provider taxonomy code: ten letters and digits, e.g. 103T00000X (2100B PRV03). */
export const NUCC_TAXONOMY = /^[0-9A-Z]{10}$/;

/** NPI: 10 digits whose last is the Luhn check digit computed with the 80840 prefix. */
export function isNpi(value: string): boolean {
  if (!/^\d{10}$/.test(value)) return false;
  let sum = 24; // the Luhn contribution of the constant prefix 80840
  for (let i = 8; i >= 0; i--) {
    let d = value.charCodeAt(i) - 48;
    if ((8 - i) % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10 === value.charCodeAt(9) - 48;
}

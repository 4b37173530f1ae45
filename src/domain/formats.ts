/** String formats the request schemas name; registered with the validator by the HTTP layer. */

/** A real calendar date in YYYY-MM-DD, from 1900 on. */
export function isIsoDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (year < 1900 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

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

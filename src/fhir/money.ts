/** FHIR Money <-> integer cents, exactly: a price with a fraction of a cent is refused, never rounded. */
import type { Money } from '@medplum/fhirtypes';

export const MAX_CENTS = 999_999_999;

/** Cents of a USD Money, or why it cannot be priced. */
export function moneyToCents(money: Money): { ok: true; cents: number } | { ok: false; message: string } {
  if (money.currency !== undefined && money.currency !== 'USD') return { ok: false, message: 'must be in USD' };
  if (typeof money.value !== 'number' || !Number.isFinite(money.value)) return { ok: false, message: 'must have a numeric value' };
  // The shortest decimal that reads back as this number: what the sender wrote, for any value JSON carries exactly.
  const text = String(money.value);
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return { ok: false, message: money.value < 0 ? 'must not be negative' : 'must be a plain decimal amount' };
  const fraction = m[2] ?? '';
  if (fraction.length > 2) return { ok: false, message: 'must be whole cents (at most two decimals)' };
  const cents = Number(m[1]) * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(cents) || cents > MAX_CENTS) return { ok: false, message: `must be at most ${MAX_CENTS / 100} USD` };
  return { ok: true, cents };
}

/** USD Money for an amount in cents. */
export function centsToMoney(cents: number): Money {
  return { value: cents / 100, currency: 'USD' };
}

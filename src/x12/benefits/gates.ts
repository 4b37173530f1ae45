/**
 * Gates read from the 271 before any arithmetic (docs/estimates.md section 1.1, "Gates"), and the
 * content order that keeps every reading independent of the order of the 2110C/2110D loops.
 */
import { periodKind } from '../codes.ts';
import type { BenefitLoop } from '../loops.ts';
import { el } from '../tokenizer.ts';
import { dollarsToCents } from '../values.ts';

interface Row {
  loop: BenefitLoop;
  info: string;
}

/**
 * A row's content key: its EB segment, then each subordinate segment (HSD, REF, DTP, MSG, III, the
 * 2120 NM1s), as sent and joined by line breaks, packed three characters to a number (each code + 1
 * in 17 bits, 0 past the end: below 2^53), so keys compare as arrays of numbers exactly as the
 * strings would (string comparison of slices is a runtime call in V8, several times slower).
 */
function packedKey(loop: BenefitLoop): number[] {
  const parts = [loop.seg];
  for (const list of [loop.hsd, loop.ref, loop.dtp, loop.msg, loop.iii]) for (const s of list) parts.push(s);
  for (const r of loop.related) parts.push(r.nm1);
  const out: number[] = [];
  let v = 0;
  let k = 0;
  for (let p = 0; p < parts.length; p++) {
    const seg = parts[p]!;
    // Read in place from the document, but for a segment cleaned of line breaks.
    const end = seg.end;
    const text = end < 0 ? seg.source() : seg.text;
    const from = end < 0 ? 0 : seg.offset;
    const to = end < 0 ? text.length : end;
    for (let i = p === 0 ? from : from - 1; i < to; i++) {
      v = v * 131072 + (i < from ? 11 : text.charCodeAt(i) + 1);
      if (++k === 3) {
        out.push(v);
        v = 0;
        k = 0;
      }
    }
  }
  if (k > 0) {
    for (; k < 3; k++) v *= 131072;
    out.push(v);
  }
  return out;
}

interface Keyed<T> {
  b: T;
  key: number[];
}

function compareKeyed<T extends Row>(x: Keyed<T>, y: Keyed<T>): number {
  const a = x.key;
  const b = y.key;
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * The rows in an order set by their content: where a reading takes "the first" of equal rows (the
 * plan-level status EB, the plan name), it is the same whatever order the payer sent them in.
 */
export function byContent<T extends Row>(rows: readonly T[]): T[] {
  if (rows.length < 2) return rows.slice();
  const keyed = rows.map((b): Keyed<T> => ({ b, key: packedKey(b.loop) }));
  keyed.sort(compareKeyed);
  return keyed.map((x) => x.b);
}

/** EB03 of a row in words for the explanation, e.g. "mental health (EB03 MH)". */
export function serviceWords(b: Row): string {
  const eb03 = el(b.loop.seg, 3);
  return eb03 === '' ? 'the plan (no EB03)' : `service type EB03 ${eb03}`;
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * A Medicaid spend-down (EB01 Y) that is not met: Medicaid pays nothing until the member has incurred
 * the spend-down amount. Unmet when a remaining amount (EB06 29/33) above 0 is sent, or when only a
 * total above 0 is sent and what was met (EB06 24) does not reach it. A remaining of 0 is met.
 */
export function spendDownGate<T extends Row>(rows: readonly T[]): { reason: string; rows: T[] } | null {
  const spendDown: T[] = [];
  let remaining: number | null = null;
  let total: number | null = null;
  let met: number | null = null;
  for (const b of rows) {
    if (b.info !== 'Y') continue;
    spendDown.push(b);
    const v = el(b.loop.seg, 7);
    const amount = v === '' ? null : dollarsToCents(v);
    if (amount === null) continue;
    const kind = periodKind(el(b.loop.seg, 6));
    if (kind === 'remaining') remaining = Math.max(remaining ?? 0, amount);
    else if (kind === 'met') met = Math.max(met ?? 0, amount);
    else if (kind === 'total') total = Math.max(total ?? 0, amount);
  }
  if (remaining === null && total !== null) remaining = Math.max(0, total - (met ?? 0));
  if (remaining === null || remaining <= 0) return null;
  return { reason: `Medicaid spend-down (EB01 Y) not met: ${dollars(remaining)} remains before Medicaid pays`, rows: spendDown };
}

/**
 * Gates read from the 271 before any arithmetic (docs/estimates.md section 1.1, "Gates"), and the
 * content order that keeps every reading independent of the order of the 2110C/2110D loops.
 */
import { periodKind } from '../codes.ts';
import type { BenefitLoop } from '../loops.ts';
import { el, type Segment } from '../tokenizer.ts';
import { dollarsToCents } from '../values.ts';

interface Row {
  loop: BenefitLoop;
  info: string;
}

/**
 * A row's content key: its EB segment, then each subordinate segment (HSD, REF, DTP, MSG, III, the
 * 2120 NM1s), as sent and joined by line breaks. Keys are compared packed three characters to a
 * number (each code + 1 in 17 bits, 0 past the end: below 2^53), which orders them exactly as the
 * strings would; comparing slices as strings is a runtime call in V8, several times slower.
 */
function pack(segments: readonly Segment[], lineBreakAfter: boolean): number[] {
  const out: number[] = [];
  let v = 0;
  let k = 0;
  for (let p = 0; p < segments.length; p++) {
    const seg = segments[p]!;
    // Read in place from the document, but for a segment cleaned of line breaks.
    const end = seg.end;
    const text = end < 0 ? seg.source() : seg.text;
    const from = end < 0 ? 0 : seg.offset;
    const to = end < 0 ? text.length : end;
    const last = p === segments.length - 1;
    for (let i = from; i <= to; i++) {
      let c: number;
      if (i < to) c = text.charCodeAt(i) + 1;
      else if (!last || lineBreakAfter) c = 11;
      else break;
      v = v * 131072 + c;
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

function subordinates(loop: BenefitLoop): Segment[] {
  const out: Segment[] = [];
  for (const list of [loop.hsd, loop.ref, loop.dtp, loop.msg, loop.iii]) for (const s of list) out.push(s);
  for (const r of loop.related) out.push(r.nm1);
  return out;
}

const hasSubordinates = (loop: BenefitLoop) =>
  loop.hsd.length + loop.ref.length + loop.dtp.length + loop.msg.length + loop.iii.length + loop.related.length > 0;

interface Keyed<T> {
  b: T;
  /** The key's first piece: the EB segment, and the line break when more follows. */
  head: number[];
  /** The rest of the key, packed when two heads tie (the rest of two equal heads compares on its own). */
  rest: number[] | null;
}

function compareNumbers(a: readonly number[], b: readonly number[]): number {
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

function compareKeyed<T extends Row>(x: Keyed<T>, y: Keyed<T>): number {
  const d = compareNumbers(x.head, y.head);
  if (d !== 0) return d;
  x.rest ??= pack(subordinates(x.b.loop), false);
  y.rest ??= pack(subordinates(y.b.loop), false);
  return compareNumbers(x.rest, y.rest);
}

/**
 * The rows in an order set by their content: where a reading takes "the first" of equal rows (the
 * plan-level status EB, the plan name), it is the same whatever order the payer sent them in.
 */
export function byContent<T extends Row>(rows: readonly T[]): T[] {
  if (rows.length < 2) return rows.slice();
  const keyed = rows.map((b): Keyed<T> => ({ b, head: pack([b.loop.seg], hasSubordinates(b.loop)), rest: null }));
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

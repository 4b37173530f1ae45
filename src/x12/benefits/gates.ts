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
class Packer {
  readonly out: number[] = [];
  private v = 0;
  private k = 0;

  private code(c: number): void {
    this.v = this.v * 131072 + c + 1;
    if (++this.k === 3) {
      this.out.push(this.v);
      this.v = 0;
      this.k = 0;
    }
  }

  /** A segment as sent, read in place from the document (but for one cleaned of line breaks). */
  segment(seg: Segment): void {
    const end = seg.end;
    if (end < 0) {
      const text = seg.source();
      for (let i = 0; i < text.length; i++) this.code(text.charCodeAt(i));
      return;
    }
    const text = seg.text;
    for (let i = seg.offset; i < end; i++) this.code(text.charCodeAt(i));
  }

  lineBreak(): void {
    this.code(10);
  }

  finish(): number[] {
    if (this.k > 0) {
      for (; this.k < 3; this.k++) this.v *= 131072;
      this.out.push(this.v);
    }
    return this.out;
  }
}

function packRest(loop: BenefitLoop): number[] {
  const p = new Packer();
  let first = true;
  for (const list of [loop.hsd, loop.ref, loop.dtp, loop.msg, loop.iii]) {
    for (const s of list) {
      if (!first) p.lineBreak();
      p.segment(s);
      first = false;
    }
  }
  for (const r of loop.related) {
    if (!first) p.lineBreak();
    p.segment(r.nm1);
    first = false;
  }
  return p.finish();
}

const hasSubordinates = (loop: BenefitLoop) =>
  loop.hsd.length + loop.ref.length + loop.dtp.length + loop.msg.length + loop.iii.length + loop.related.length > 0;

interface Keyed<T> {
  b: T;
  /** The key's first piece, the EB segment as sent: text.slice(off, off + len) (a cleaned segment's source() when it held line breaks). */
  text: string;
  off: number;
  len: number;
  /** A line break follows the EB segment in the key (the loop has subordinate segments). */
  sub: boolean;
  /**
   * The head's first 12 positions packed three to a number (a character c as c + 2, the line break
   * after the segment as 12, past the end 0: the order of the characters); most heads differ in them.
   */
  p0: number;
  p1: number;
  p2: number;
  p3: number;
  /** The rest of the key, packed when two heads tie (the rest of two equal heads compares on its own). */
  rest: number[] | null;
}

const PACKED = 12;

function keyOf<T extends Row>(b: T): Keyed<T> {
  const seg = b.loop.seg;
  const end = seg.end;
  const sub = hasSubordinates(b.loop);
  const text = end < 0 ? seg.source() : seg.text;
  const off = end < 0 ? 0 : seg.offset;
  const len = end < 0 ? text.length : end - off;
  if (len >= PACKED) {
    // The whole head of most EB segments: no test per position.
    const p0 = ((text.charCodeAt(off) + 2) * 131072 + text.charCodeAt(off + 1) + 2) * 131072 + text.charCodeAt(off + 2) + 2;
    const p1 = ((text.charCodeAt(off + 3) + 2) * 131072 + text.charCodeAt(off + 4) + 2) * 131072 + text.charCodeAt(off + 5) + 2;
    const p2 = ((text.charCodeAt(off + 6) + 2) * 131072 + text.charCodeAt(off + 7) + 2) * 131072 + text.charCodeAt(off + 8) + 2;
    const p3 = ((text.charCodeAt(off + 9) + 2) * 131072 + text.charCodeAt(off + 10) + 2) * 131072 + text.charCodeAt(off + 11) + 2;
    return { b, text, off, len, sub, p0, p1, p2, p3, rest: null };
  }
  let p0 = 0;
  let p1 = 0;
  let p2 = 0;
  let v = 0;
  for (let i = 0; i < PACKED; i++) {
    v = v * 131072 + (i < len ? text.charCodeAt(off + i) + 2 : i === len && sub ? 12 : 0);
    if (i === 2) {
      p0 = v;
      v = 0;
    } else if (i === 5) {
      p1 = v;
      v = 0;
    } else if (i === 8) {
      p2 = v;
      v = 0;
    }
  }
  return { b, text, off, len, sub, p0, p1, p2, p3: v, rest: null };
}

function compareNumbers(a: readonly number[], b: readonly number[]): number {
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * The heads compared in place, character by character, as the strings would compare (a segment as
 * sent never holds a line break: one that did was cleaned); then, when they tie, the packed rests.
 */
function compareKeyed<T extends Row>(x: Keyed<T>, y: Keyed<T>): number {
  if (x.p0 !== y.p0) return x.p0 - y.p0;
  if (x.p1 !== y.p1) return x.p1 - y.p1;
  if (x.p2 !== y.p2) return x.p2 - y.p2;
  if (x.p3 !== y.p3) return x.p3 - y.p3;
  // The first 12 positions agree: a head shorter than that ends at the same place in both (a
  // segment holds no line break), so the heads are equal; else read on from position 12.
  const n = x.len < y.len ? x.len : y.len;
  const tx = x.text;
  const ty = y.text;
  const ox = x.off;
  const oy = y.off;
  for (let i = n < PACKED ? n : PACKED; i < n; i++) {
    const d = tx.charCodeAt(ox + i) - ty.charCodeAt(oy + i);
    if (d !== 0) return d;
  }
  const cx = x.len > n ? tx.charCodeAt(ox + n) : x.sub ? 10 : -1;
  const cy = y.len > n ? ty.charCodeAt(oy + n) : y.sub ? 10 : -1;
  if (cx !== cy) return cx - cy;
  x.rest ??= packRest(x.b.loop);
  y.rest ??= packRest(y.b.loop);
  return compareNumbers(x.rest, y.rest);
}

/**
 * The rows in an order set by their content: where a reading takes "the first" of equal rows (the
 * plan-level status EB, the plan name), it is the same whatever order the payer sent them in.
 */
export function byContent<T extends Row>(rows: readonly T[]): T[] {
  if (rows.length < 2) return rows.slice();
  if (rows.length > 64) {
    const all = rows.map(keyOf);
    return all.sort(compareKeyed).map((x) => x.b);
  }
  // A stable binary insertion sort: a 271 has tens of rows, and Array.prototype.sort's calls back
  // into the comparator cost more than the comparisons themselves (beyond 64 rows, the moves would).
  const keyed: Keyed<T>[] = [];
  for (const b of rows) {
    const x = keyOf(b);
    let lo = 0;
    let hi = keyed.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareKeyed(x, keyed[mid]!) < 0) hi = mid;
      else lo = mid + 1;
    }
    keyed.push(x);
    for (let j = keyed.length - 1; j > lo; j--) keyed[j] = keyed[j - 1]!;
    keyed[lo] = x;
  }
  const out: T[] = [];
  for (const x of keyed) out.push(x.b);
  return out;
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

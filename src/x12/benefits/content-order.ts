/**
 * The content order that keeps every reading independent of the order of the 2110C/2110D loops
 * (docs/estimates.md section 1.1): where a reading takes "the first" of equal rows, it is the first
 * by content, never by where the payer put it.
 */
import type { BenefitLoop } from '../loops.ts';
import type { Segment } from '../tokenizer.ts';

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

/** The key's first piece, the EB segment as sent: text.slice(off, off + len) (a cleaned segment's source() when it held line breaks). */
function headOf(seg: Segment): { text: string; off: number; len: number } {
  const end = seg.end;
  if (end < 0) {
    const text = seg.source();
    return { text, off: 0, len: text.length };
  }
  return { text: seg.text, off: seg.offset, len: end - seg.offset };
}

const PACKED = 12;

/**
 * The packed heads of the rows byContent orders, four numbers a row in one reused array (byContent
 * is never re-entered; no key object per row): the head's first 12 positions packed three to a
 * number (a character c as c + 2, the line break after the segment as 12, past the end 0: the order
 * of the characters). Most heads differ in them.
 */
let heads = new Float64Array(4 * 64);
/** The packed rests of rows whose heads tied (the rest of two equal heads compares on its own), by row. */
let rests: (number[] | undefined)[] | null = null;
/** The order being built: positions in `rows`. */
const order = new Int32Array(64);

function packHead(k: number, loop: BenefitLoop): void {
  const seg = loop.seg;
  const end = seg.end;
  const at = 4 * k;
  const h = heads;
  if (end - seg.offset >= PACKED) {
    // The whole head of most EB segments, read in place: no test per position.
    const t = seg.text;
    const o = seg.offset;
    h[at] = ((t.charCodeAt(o) + 2) * 131072 + t.charCodeAt(o + 1) + 2) * 131072 + t.charCodeAt(o + 2) + 2;
    h[at + 1] = ((t.charCodeAt(o + 3) + 2) * 131072 + t.charCodeAt(o + 4) + 2) * 131072 + t.charCodeAt(o + 5) + 2;
    h[at + 2] = ((t.charCodeAt(o + 6) + 2) * 131072 + t.charCodeAt(o + 7) + 2) * 131072 + t.charCodeAt(o + 8) + 2;
    h[at + 3] = ((t.charCodeAt(o + 9) + 2) * 131072 + t.charCodeAt(o + 10) + 2) * 131072 + t.charCodeAt(o + 11) + 2;
    return;
  }
  const { text, off, len } = headOf(seg);
  const sub = hasSubordinates(loop);
  let v = 0;
  for (let i = 0; i < PACKED; i++) {
    v = v * 131072 + (i < len ? text.charCodeAt(off + i) + 2 : i === len && sub ? 12 : 0);
    if (i % 3 === 2) {
      h[at + (i - 2) / 3] = v;
      v = 0;
    }
  }
}

function compareNumbers(a: readonly number[], b: readonly number[]): number {
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

function restOf(rows: readonly Row[], k: number): number[] {
  rests ??= [];
  return (rests[k] ??= packRest(rows[k]!.loop));
}

/**
 * Rows x and y of `rows` compared by their packed heads, then in place, character by character, as
 * the strings would compare (a segment as sent never holds a line break: one that did was cleaned);
 * then, when the heads tie, by the packed rests.
 */
function compareRows(rows: readonly Row[], x: number, y: number): number {
  // A local: the module binding is read again at every use.
  const h = heads;
  const ax = 4 * x;
  const ay = 4 * y;
  for (let j = 0; j < 4; j++) if (h[ax + j] !== h[ay + j]) return h[ax + j]! - h[ay + j]!;
  // The first 12 positions agree: a head shorter than that ends at the same place in both (a
  // segment holds no line break), so the heads are equal; else read on from position 12.
  const lx = rows[x]!.loop;
  const ly = rows[y]!.loop;
  const hx = headOf(lx.seg);
  const hy = headOf(ly.seg);
  const n = hx.len < hy.len ? hx.len : hy.len;
  for (let i = n < PACKED ? n : PACKED; i < n; i++) {
    const d = hx.text.charCodeAt(hx.off + i) - hy.text.charCodeAt(hy.off + i);
    if (d !== 0) return d;
  }
  const cx = hx.len > n ? hx.text.charCodeAt(hx.off + n) : hasSubordinates(lx) ? 10 : -1;
  const cy = hy.len > n ? hy.text.charCodeAt(hy.off + n) : hasSubordinates(ly) ? 10 : -1;
  if (cx !== cy) return cx - cy;
  return compareNumbers(restOf(rows, x), restOf(rows, y));
}

/**
 * The rows in an order set by their content: where a reading takes "the first" of equal rows (the
 * plan-level status EB, the plan name), it is the same whatever order the payer sent them in.
 */
export function byContent<T extends Row>(rows: readonly T[]): T[] {
  const count = rows.length;
  if (count < 2) return rows.slice();
  if (heads.length < 4 * count) heads = new Float64Array(4 * count);
  rests = null;
  for (let k = 0; k < count; k++) packHead(k, rows[k]!.loop);
  if (count > 64) {
    const sorted = rows.map((_, k) => k).sort((x, y) => compareRows(rows, x, y));
    rests = null;
    return sorted.map((k) => rows[k]!);
  }
  // A stable binary insertion sort: a 271 has tens of rows, and Array.prototype.sort's calls back
  // into the comparator cost more than the comparisons themselves (beyond 64 rows, the moves would).
  for (let k = 0; k < count; k++) {
    let lo = 0;
    let hi = k;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareRows(rows, k, order[mid]!) < 0) hi = mid;
      else lo = mid + 1;
    }
    for (let j = k; j > lo; j--) order[j] = order[j - 1]!;
    order[lo] = k;
  }
  const out: T[] = [];
  for (let j = 0; j < count; j++) out.push(rows[order[j]!]!);
  rests = null;
  return out;
}

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

function contentKey(loop: BenefitLoop): string {
  let key = loop.seg.source();
  for (const list of [loop.hsd, loop.ref, loop.dtp, loop.msg, loop.iii]) for (const s of list) key += `\n${s.source()}`;
  for (const r of loop.related) key += `\n${r.nm1.source()}`;
  return key;
}

/**
 * The rows in an order set by their content: where a reading takes "the first" of equal rows (the
 * plan-level status EB, the plan name), it is the same whatever order the payer sent them in.
 */
export function byContent<T extends Row>(rows: readonly T[]): T[] {
  const out = rows.slice();
  if (out.length < 2) return out;
  // EB segments nearly always differ within their own text: the whole keys are built only for those that do not.
  let keys: Map<BenefitLoop, string> | null = null;
  const keyOf = (loop: BenefitLoop) => {
    keys ??= new Map();
    let k = keys.get(loop);
    if (k === undefined) keys.set(loop, (k = contentKey(loop)));
    return k;
  };
  out.sort((x, y) => {
    const d = x.loop.seg.sourceOrder(y.loop.seg);
    if (d !== 0) return d;
    const kx = keyOf(x.loop);
    const ky = keyOf(y.loop);
    return kx < ky ? -1 : kx > ky ? 1 : 0;
  });
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

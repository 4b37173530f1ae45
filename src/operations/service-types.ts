/**
 * Which service types each inquiry of an estimate asks (docs/going-live.md, "Service types"). A route
 * of the production directory carries its plan (connections.ts ServiceTypePlan: one EQ list per
 * inquiry, by default MH, then 30); the sandbox, which has no routes, asks the inquiry's own list.
 */
import type { Inquiry } from '../domain/inquiry.ts';
import type { RouteEnvelope } from '../payers/network.ts';
import { codeTable } from '../x12/code-tables/index.ts';
import { STRONG_BH_TIER, tierOf } from '../x12/codes.ts';
import { locateIsa, repetitions } from '../x12/index.ts';

/** The EQ codes of inquiry `step` (0 first) through this route: its plan's entry, its last one past the end. */
export function serviceTypesFor(route: RouteEnvelope, step: number, inquiry: Inquiry): string[] {
  const plan = route.service_types;
  if (!plan || plan.length === 0) return inquiry.service_types;
  return [...plan[Math.min(step, plan.length - 1)]!];
}

/** How many inquiries this route's plan holds. */
export const planLength = (route: RouteEnvelope) => route.service_types?.length ?? 1;

/** The EB03 codes of tier 0..STRONG_BH_TIER (tierOf): two ASCII characters flagged at (c0 << 7) | c1, any other in the set. */
const STRONG2 = new Uint8Array(128 * 128);
const STRONG_OTHER = new Set<string>();
for (const code of Object.keys(codeTable('eb03').codes)) {
  const tier = tierOf(code);
  if (tier < 0 || tier > STRONG_BH_TIER) continue;
  if (code.length === 2 && (code.charCodeAt(0) | code.charCodeAt(1)) < 128) STRONG2[(code.charCodeAt(0) << 7) | code.charCodeAt(1)] = 1;
  else STRONG_OTHER.add(code);
}

const isStrong = (code: string) => {
  const tier = tierOf(code);
  return tier >= 0 && tier <= STRONG_BH_TIER;
};

/** Whether text[from, to) (an EB03) holds a strong code among its repetitions (R: the separator's code, -1 without one). */
function strongIn(text: string, from: number, to: number, R: number): boolean {
  let a = from;
  while (a < to) {
    let b = a;
    if (R >= 0) while (b < to && text.charCodeAt(b) !== R) b++;
    else b = to;
    if (b - a === 2) {
      const c0 = text.charCodeAt(a);
      const c1 = text.charCodeAt(a + 1);
      if ((c0 | c1) < 128) {
        if (STRONG2[(c0 << 7) | c1] === 1) return true;
      } else if (STRONG_OTHER.has(text.slice(a, b))) return true;
    } else if (b > a && STRONG_OTHER.size > 0 && STRONG_OTHER.has(text.slice(a, b))) return true;
    a = b + 1;
  }
  return false;
}

const isUpper = (c: number) => c >= 65 && c <= 90;
const isUpperOrDigit = (c: number) => (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
const isBlank = (c: number) => c === 13 || c === 10 || c === 32 || c === 9;

/** The tokenizer's rule for a segment ID (x12/tokenizer.ts validId). */
function validId(id: string): boolean {
  if (id.length < 2 || id.length > 3) return false;
  if (!isUpper(id.charCodeAt(0))) return false;
  for (let i = 1; i < id.length; i++) if (!isUpperOrDigit(id.charCodeAt(i))) return false;
  return true;
}

/**
 * A 271 that answers with benefits but none for behavioral health itself (MH, CF, A4, A6, A7, A8, AI
 * in an EB03): the next inquiry of the plan may do better. A rejection or an answer without any EB
 * is what it is: false.
 *
 * Decided as tokenize() would read the document (false whenever it fails) without building its
 * segments: the ISA's delimiters, then each segment's ID checked where it lies and only EB03s read.
 * A segment holding line breaks (a wrapped file) is read as the tokenizer does, by splitting it.
 */
export function lacksBehavioralDetail(x12: string): boolean {
  const isa = locateIsa(x12);
  if (!isa.ok) return false;
  const d = isa.value.delimiters;
  const E = d.element.charCodeAt(0);
  const R = d.repetition === null ? -1 : d.repetition.charCodeAt(0);
  const n = x12.length;
  let benefits = 0;
  // The next line feed / carriage return at or after the segment's start (n: none left).
  let lf = -1;
  let cr = -1;
  let start = isa.value.start;
  for (;;) {
    const end = x12.indexOf(d.segment, start);
    if (end < 0) break;
    if (lf < start) {
      lf = x12.indexOf('\n', start);
      if (lf < 0) lf = n;
    }
    if (cr < start) {
      cr = x12.indexOf('\r', start);
      if (cr < 0) cr = n;
    }
    if (lf < end || cr < end) {
      const cleaned = x12
        .slice(start, end)
        .split(d.element)
        .map((e) => e.replace(/[\r\n]/g, ''));
      const id = cleaned[0]!;
      if (id !== '' || cleaned.length !== 1) {
        if (!validId(id)) return false;
        if (id === 'EB') {
          benefits++;
          for (const code of repetitions(cleaned[3] ?? '', d)) if (isStrong(code)) return false;
        }
      }
    } else if (end > start) {
      const c1 = x12.charCodeAt(start + 1);
      if (!isUpper(x12.charCodeAt(start)) || !isUpperOrDigit(c1)) return false;
      const c2 = x12.charCodeAt(start + 2);
      if (c2 === E || start + 2 === end) {
        if (x12.charCodeAt(start) === 69 && c1 === 66) {
          benefits++;
          // The element separators after the ID, EB01 and EB02; EB03 lies between the third and the next.
          let b = start + 2;
          for (let k = 1; k <= 2 && b < end; k++) {
            b++;
            while (b < end && x12.charCodeAt(b) !== E) b++;
          }
          if (b < end) {
            let to = b + 1;
            while (to < end && x12.charCodeAt(to) !== E) to++;
            if (strongIn(x12, b + 1, to, R)) return false;
          }
        }
      } else if (!isUpperOrDigit(c2)) return false;
      else {
        const c3 = x12.charCodeAt(start + 3);
        if (c3 !== E && start + 3 !== end) return false;
      }
    }
    start = end + 1;
    while (start < n && isBlank(x12.charCodeAt(start))) start++;
  }
  if (start < n) {
    // What the tokenizer accepts after the last terminator: a trailer without its own.
    const id = x12.slice(start, Math.min(n, start + 3)).split(d.element)[0] ?? '';
    if (!((id === 'IEA' || id === 'GE') && x12.indexOf(d.element, start) > 0)) return false;
  }
  return benefits > 0;
}

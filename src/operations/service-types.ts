/**
 * Which service types each inquiry of an estimate asks (docs/going-live.md, "Service types"). A route
 * of the production directory carries its plan (connections.ts ServiceTypePlan: one EQ list per
 * inquiry, by default MH, then 30); the sandbox, which has no routes, asks the inquiry's own list.
 */
import type { Inquiry } from '../domain/inquiry.ts';
import type { RouteEnvelope } from '../payers/network.ts';
import { STRONG_BH_TIER, tierOf } from '../x12/codes.ts';
import { el, repetitions, tokenize, type ParseResult, type Tokens } from '../x12/index.ts';

/** The EQ codes of inquiry `step` (0 first) through this route: its plan's entry, its last one past the end. */
export function serviceTypesFor(route: RouteEnvelope, step: number, inquiry: Inquiry): string[] {
  const plan = route.service_types;
  if (!plan || plan.length === 0) return inquiry.service_types;
  return [...plan[Math.min(step, plan.length - 1)]!];
}

/** How many inquiries this route's plan holds. */
export const planLength = (route: RouteEnvelope) => route.service_types?.length ?? 1;

/**
 * A 271 that answers with benefits but none for behavioral health itself (MH, CF, A4, A6, A7, A8, AI
 * in an EB03): the next inquiry of the plan may do better. A rejection or an answer without any EB
 * is what it is: false. The answer as text, or its segments already read (readInterchange's result).
 */
export function lacksBehavioralDetail(answer: string | ParseResult<Tokens>): boolean {
  const tokens = typeof answer === 'string' ? tokenize(answer) : answer;
  if (!tokens.ok) return false;
  let benefits = 0;
  for (const seg of tokens.value.segments) {
    if (seg.id !== 'EB') continue;
    benefits++;
    for (const code of repetitions(el(seg, 3), tokens.value.delimiters)) {
      const tier = tierOf(code);
      if (tier >= 0 && tier <= STRONG_BH_TIER) return false;
    }
  }
  return benefits > 0;
}

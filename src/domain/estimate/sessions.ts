/**
 * Remaining sessions at this session cost before the deductible / OOP max is met, in closed form.
 * A count includes the session that meets the amount: 250 $ left at 100 $ a session is 3 sessions.
 * The member's payments during the deductible phase count toward the OOP max (as on ACA plans).
 */
import type { Cents } from '../coverage.ts';
import { shareOn, type PlanFacts } from './obligation.ts';

/** ceil(D / C) when a deductible applies; 0 when met; null when D is unknown, no deductible applies, or C = 0 with D > 0 (never met). */
export function sessionsBeforeDeductible(f: PlanFacts, C: Cents): number | null {
  if (f.afterDeductible !== true || f.deductibleRemaining === null) return null;
  if (f.deductibleRemaining === 0) return 0;
  if (C === 0) return null;
  return Math.ceil(f.deductibleRemaining / C);
}

/**
 * Sessions until the member's payments reach the remaining OOP max O:
 * first floor(D / C) sessions at the full cost C, then (when D is not a multiple of C) one session
 * paying the rest of the deductible plus the cost share on what is left of C, then sessions at the
 * cost share s; the count is the first session whose cumulative payments reach O.
 * 0 when O is already met; null when there is no OOP max, when it is never reached (s = 0, or C = 0),
 * or when a value it depends on is unknown.
 */
export function sessionsBeforeOopMax(f: PlanFacts, C: Cents): number | null {
  if (f.hasOopMax !== true || f.oopRemaining === null) return null;
  let left = f.oopRemaining;
  if (left <= 0) return 0;
  if (C <= 0 || f.afterDeductible === null) return null;
  let sessions = 0;
  if (f.afterDeductible) {
    const D = f.deductibleRemaining;
    if (D === null) return null;
    const fullCost = Math.floor(D / C);
    if (fullCost * C >= left) return Math.ceil(left / C);
    sessions = fullCost;
    left -= fullCost * C;
    const rest = D - fullCost * C;
    if (rest > 0) {
      if (f.rule === null) return null;
      const crossing = rest + shareOn(f.rule, C - rest);
      if (crossing >= left) return sessions + 1;
      sessions += 1;
      left -= crossing;
    }
  }
  if (f.rule === null) return null;
  const perSession = shareOn(f.rule, C);
  if (perSession === 0) return null;
  return sessions + Math.ceil(left / perSession);
}

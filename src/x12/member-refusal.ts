/**
 * The answers a 271 gives before any benefit is read (docs/estimates.md 1.4): an AAA rejection at the
 * payer, receiver, subscriber or patient level, a patient asked about whom the answer does not hold, or no
 * subscriber level at all.
 */
import { aaaReason, errorCodeForAaa } from './aaa.ts';
import { benefitAaa as benefitAaaOf, levelAaa, type HlLevel, type LoopTree } from './loops.ts';
import type { PatientLoop } from './patient.ts';
import { REJECT_LEVEL, rejection, type Eligibility } from './rejection.ts';
import { fail, ok, type ParseResult } from './result.ts';

/** The answer holds no person who is the patient asked about: as a payer says it (AAA 71, birth date does not match), 404 MEMBER_NOT_FOUND. */
function notFound(): Eligibility {
  return { kind: 'rejected', error_code: errorCodeForAaa('71'), level: 'dependent', reason_code: '71', followup: 'C', reason: aaaReason('71', 'C') };
}

interface Levels {
  payerLevel: HlLevel | undefined;
  receiverLevel: HlLevel | undefined;
  subscriberLevel: HlLevel | undefined;
  dependentLevel: HlLevel | undefined;
}

/** The rejection or failure the 271 answers with, or null when it states a member's benefits. */
export function refusalOf(
  tree: LoopTree,
  { payerLevel, receiverLevel, subscriberLevel, dependentLevel }: Levels,
  patient: PatientLoop | undefined,
  at: { index: number; id: string; offset: number },
  warnings: string[],
): ParseResult<Eligibility> | null {
  for (const level of [payerLevel, receiverLevel, subscriberLevel, dependentLevel]) {
    if (!level) continue;
    const hit = levelAaa(level);
    if (hit) return ok(rejection(hit, REJECT_LEVEL[level.kind]), warnings);
  }
  if (patient && 'notFound' in patient) {
    warnings.push(`the patient asked about is not in the answer: ${patient.notFound}`);
    return ok(notFound(), warnings);
  }
  if (!subscriberLevel) {
    for (const level of tree.levels) {
      const hit = levelAaa(level) ?? benefitAaaOf(level)[0];
      if (hit) return ok(rejection(hit, REJECT_LEVEL[level.kind]), warnings);
    }
    return fail('the 271 has no subscriber level (2000C, HL03=22) and no AAA rejection', at);
  }
  return null;
}

/** What a 271 reads as: the member's coverage, or the rejection its AAA segments state (normalize-271.ts). */
import type { Coverage } from '../domain/coverage.ts';
import type { ErrorCode } from '../domain/errors.ts';
import { aaaReason, errorCodeForAaa } from './aaa.ts';
import type { HlLevel } from './loops.ts';
import { el, type Segment } from './tokenizer.ts';

export type RejectLevel = 'payer' | 'provider' | 'subscriber' | 'dependent';

export type Eligibility =
  | { kind: 'coverage'; coverage: Coverage; trace_number: string | null }
  | {
      kind: 'rejected';
      error_code: ErrorCode;
      level: RejectLevel;
      reason_code: string;
      followup: string;
      /** Operator text, e.g. "AAA 75: subscriber/insured not found (please correct and resubmit)". */
      reason: string;
    };

export function rejection(seg: Segment, level: RejectLevel): Eligibility {
  const code = el(seg, 3);
  const followup = el(seg, 4);
  return { kind: 'rejected', error_code: errorCodeForAaa(code), level, reason_code: code, followup, reason: aaaReason(code, followup) };
}

export const isTrn2 = (t: Segment) => el(t, 1) === '2';

export const REJECT_LEVEL: Record<HlLevel['kind'], RejectLevel> = {
  payer: 'payer',
  receiver: 'provider',
  subscriber: 'subscriber',
  dependent: 'dependent',
  other: 'payer',
};

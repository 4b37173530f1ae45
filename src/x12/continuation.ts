/**
 * COBRA continuation (docs/estimates.md 1.1, "Gates"; TR3 005010X279A1 2100C/2100D DTP 340 COBRA begin,
 * 341 COBRA end): coverage under the same plan continued after a qualifying event such as the end of
 * employment (29 U.S.C. 1161-1163). An eligibility end the continuation begins right after (the day
 * after, or the same day) is the end of the employment's eligibility, not of the coverage: the member is
 * eligible through the COBRA end (341, or open when none is sent). The qualifiers are the code table's
 * (dtp-2100.json `continuation`).
 */
import type { IsoDate } from '../domain/coverage.ts';
import { codeEntry } from './code-tables/index.ts';
import type { NameLoop } from './loops.ts';
import { dayAfter } from './plan-dates.ts';
import { el } from './tokenizer.ts';
import { readDtpDate } from './values.ts';

/** The COBRA span the member loops state: its first begin and end (a 340 range states its end too); null without a begin. */
function continuationOf(names: readonly (NameLoop | undefined)[]): { begin: IsoDate; end: IsoDate | null } | null {
  let begin: IsoDate | null = null;
  let end: IsoDate | null = null;
  for (const n of names) {
    for (const dtp of n?.dtp ?? []) {
      const side = codeEntry('dtp-2100', el(dtp, 1))?.continuation;
      if (side === undefined) continue;
      const r = readDtpDate(el(dtp, 2), el(dtp, 3));
      if (r === null) continue;
      if (side === 'begin') {
        begin ??= r.start;
        end ??= r.end;
      } else end ??= r.end ?? r.start;
    }
  }
  return begin === null ? null : { begin, end };
}

/**
 * The member's eligibility end once COBRA continuation is read: when a continuation begins the day after
 * `eligibilityEnd` (or on it), the COBRA end (null: open); else `eligibilityEnd` as it is. `continued` says
 * which, for the explanation.
 */
export function continuedEligibility(
  names: readonly (NameLoop | undefined)[],
  eligibilityEnd: IsoDate | null,
): { end: IsoDate | null; continued: { begin: IsoDate; end: IsoDate | null } | null } {
  if (eligibilityEnd === null) return { end: null, continued: null };
  const c = continuationOf(names);
  if (c === null || c.begin < eligibilityEnd || c.begin > dayAfter(eligibilityEnd)) return { end: eligibilityEnd, continued: null };
  return { end: c.end, continued: c };
}

/**
 * The member's eligibility once the dates that narrow it are read (dtp-2100.json `narrows`: policy effective 539,
 * policy expiration 540, COBRA end 341; TR3 005010X279A1 2100C/2100D DTP): the later of the begins and the earlier
 * of the ends. The plan gate reads the result (docs/estimates.md 1.1, "Gates").
 */
export function narrowedEligibility(
  names: readonly (NameLoop | undefined)[],
  begin: IsoDate | null,
  end: IsoDate | null,
): { begin: IsoDate | null; end: IsoDate | null } {
  let b = begin;
  let e = end;
  for (const n of names) {
    for (const dtp of n?.dtp ?? []) {
      const side = codeEntry('dtp-2100', el(dtp, 1))?.narrows;
      if (side === undefined) continue;
      const r = readDtpDate(el(dtp, 2), el(dtp, 3));
      if (r === null) continue;
      if (side === 'begin' && (b === null || r.start > b)) b = r.start;
      const last = side === 'end' ? r.start : r.end;
      if (last !== null && (e === null || last < e)) e = last;
    }
  }
  return { begin: b, end: e };
}

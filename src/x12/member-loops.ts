/** What the 2100C/2100D name loops say: the person, their REFs, and the dates the plan status comes from. */
import type { Person } from '../domain/coverage.ts';
import { isIsoDate } from '../domain/formats.ts';
import { benefitDtp, memberDtp, memberRef } from './code-tables/attributes.ts';
import { type BenefitLoop, type NameLoop } from './loops.ts';
import { el, type Segment } from './tokenizer.ts';
import { d8ToIso, readDtpDate, type DateRange } from './values.ts';
import { orNull } from './eb-benefit.ts';

/** A date the API can state (its `date` format starts in 1900; Optum's sandbox members are born in 1880): else unknown. */
const apiDate = (iso: string | null) => (iso !== null && isIsoDate(iso) ? iso : null);

/**
 * The dates the plan's status and dates come from, each the first readable of its kind: the plan's
 * begin (DTP 346), end (347) and range (291), the member's eligibility begin (356), end (357) and
 * range (307) (dtp-2100.json / dtp-2110.json `of` and `date`).
 */
export interface PlanDates {
  plan: Record<'begin' | 'end' | 'range', DateRange | null>;
  eligibility: Record<'begin' | 'end' | 'range', DateRange | null>;
}

/**
 * The first readable date of each kind the plan dates come from, member's loop first, then
 * (346/347/356/357, the 307 eligibility range and a 291 plan range) the plan-level EB's 2110C DTPs.
 */
export function planDates(names: (NameLoop | undefined)[], planEb: BenefitLoop | undefined): PlanDates {
  const out: PlanDates = { plan: { begin: null, end: null, range: null }, eligibility: { begin: null, end: null, range: null } };
  for (let k = 0; k <= names.length; k++) {
    const n = k < names.length ? names[k] : planEb;
    if (!n) continue;
    const benefit = n === planEb;
    const table = benefit ? benefitDtp : memberDtp;
    for (const dtp of n.dtp) {
      const q = el(dtp, 1);
      const of = table.of(q);
      const date = table.date(q);
      if ((of !== 'plan' && of !== 'eligibility') || date === undefined) continue;
      // On the plan-level EB a 291 range is the plan's dates; a lone 291 date there is the date asked about, echoed.
      if (benefit && of === 'plan' && date === 'range' && el(dtp, 2) !== 'RD8') continue;
      out[of][date] ??= readDtpDate(el(dtp, 2), el(dtp, 3));
    }
  }
  return out;
}

export function refIn(names: (NameLoop | undefined)[], qualifier: string): Segment | null {
  for (const n of names) {
    if (!n) continue;
    for (const ref of n.ref) if (el(ref, 1) === qualifier) return ref;
  }
  return null;
}

export function readPerson(name: NameLoop | undefined): Person {
  if (!name) return { first_name: null, last_name: null, member_id: null, gender: null, dob: null, address: null };
  const nm1 = name.nm1;
  const dmg = name.dmg;
  const gender = dmg ? el(dmg, 3) : '';
  const ref1w = name.ref.find((r) => memberRef(el(r, 1)) === 'member_id');
  const idFromNm1 = el(nm1, 8) !== '' ? orNull(el(nm1, 9)) : null;
  return {
    first_name: orNull(el(nm1, 4)),
    last_name: orNull(el(nm1, 3)),
    member_id: idFromNm1 ?? (ref1w ? orNull(el(ref1w, 2)) : null),
    gender: gender === 'M' || gender === 'F' || gender === 'U' ? gender : null,
    dob: dmg && el(dmg, 1) === 'D8' ? apiDate(d8ToIso(el(dmg, 2))) : null,
    address:
      name.n3 || name.n4
        ? {
            street_line_1: name.n3 ? el(name.n3, 1) : '',
            street_line_2: name.n3 ? orNull(el(name.n3, 2)) : null,
            city: name.n4 ? el(name.n4, 1) : '',
            state: name.n4 ? el(name.n4, 2) : '',
            zip: name.n4 ? el(name.n4, 3) : '',
          }
        : null,
  };
}

/**
 * Which person of a 271's subscriber level (2000C and its 2000D dependents) is the patient asked about
 * (docs/estimates.md 1.1, "The patient"), and the family figures the other people's loops state for them.
 */
import type { IsoDate } from '../domain/coverage.ts';
import { comparableName as norm } from '../domain/names.ts';
import { isFamilyLevel, namesNetwork } from './benefits/rows.ts';
import { statusCoverage } from './code-tables/attributes.ts';
import type { BenefitLoop, HlLevel } from './loops.ts';
import { readPerson } from './member-loops.ts';
import { el } from './tokenizer.ts';

/** The person the request is about: the 270's 2100D when it asks about a dependent, else its 2100C. */
export interface AskedPerson {
  member_id: string | null;
  first_name: string | null;
  last_name: string | null;
  dob: IsoDate | null;
}

export type PatientLoop = { level: HlLevel; dependent: boolean } | { notFound: string };

/** Each name the request and the loop both give is the same (case, spaces and diacritics aside). */
function namesAgree(asked: AskedPerson, level: HlLevel): boolean {
  const p = readPerson(level.names[0]);
  for (const [a, b] of [
    [asked.first_name, p.first_name],
    [asked.last_name, p.last_name],
  ] as const)
    if (norm(a) !== '' && norm(b) !== '' && norm(a) !== norm(b)) return false;
  return true;
}

/**
 * The patient's loop. A dependent whose own member ID (2100D NM109) is the one asked (`asked`, else `memberId`:
 * the member ID asked alone), whatever else is asked. Without a person asked about (the CLI), or without
 * dependents, as sent: the first dependent, else the subscriber. Otherwise, in order:
 * the one dependent whose date of birth (DMG) is the one asked (of several, the one whose names agree; of several
 * whose names agree, the first when the others are the same loop sent again: sameLoop);
 * the one dependent without a date of birth whose names agree; the subscriber when its date of birth is
 * the one asked or not sent. A dependent whose date of birth differs from the one asked is never the patient,
 * whatever its name (a namesake): with no person left, the patient is not in the answer.
 */
export function patientLoop(subscriber: HlLevel, asked: AskedPerson | undefined, memberId: string | null = null): PatientLoop {
  const dependents = subscriber.children.filter((c) => c.kind === 'dependent');
  if (dependents.length === 0) return { level: subscriber, dependent: false };
  const person = (l: HlLevel) => readPerson(l.names[0]);
  const one = (list: HlLevel[]) => (list.length === 1 ? { level: list[0]!, dependent: true } : null);
  // A dependent's own member ID names them, whether or not the rest of the person is asked (the member ID asked alone).
  const id = asked?.member_id ?? memberId;
  if (id) {
    const byId = one(dependents.filter((d) => person(d).member_id === id && person(subscriber).member_id !== id));
    if (byId) return byId;
  }
  if (!asked) return { level: dependents[0]!, dependent: true };
  if (asked.dob !== null) {
    const born = dependents.filter((d) => person(d).dob === asked.dob);
    const agreeing = born.filter((d) => namesAgree(asked, d));
    const chosen = one(born) ?? one(agreeing) ?? one(agreeing.filter((d, i) => i === 0 || !sameLoop(agreeing[0]!, d)));
    if (chosen) return chosen;
    if (born.length > 1) return { notFound: 'several dependents have the date of birth and names asked about' };
  }
  const undated = one(dependents.filter((d) => person(d).dob === null && namesAgree(asked, d) && norm(person(d).last_name) !== ''));
  if (undated) return undated;
  const own = person(subscriber).dob;
  if (asked.dob === null || own === null || own === asked.dob) return { level: subscriber, dependent: false };
  return { notFound: 'no person in the answer has the date of birth asked about' };
}

/** A benefit loop's segments as sent (EB, its 2115 III, 2120 entities and every other segment it holds). */
function benefitSource(b: BenefitLoop): string {
  const segments = [b.seg, ...b.hsd, ...b.ref, ...b.dtp, ...b.aaa, ...b.msg, ...b.iii, ...b.other];
  for (const r of b.related) segments.push(r.nm1, ...(r.n3 ? [r.n3] : []), ...(r.n4 ? [r.n4] : []), ...r.per, ...(r.prv ? [r.prv] : []));
  return segments.map((s) => s.source()).join('\n');
}

/**
 * Two dependent loops that are one person sent twice: the same names (as a 270 writes them), date of birth and
 * member ID, and the same benefit rows segment for segment, so either answers alike (271-review-11 39).
 */
function sameLoop(a: HlLevel, b: HlLevel): boolean {
  const [p, q] = [readPerson(a.names[0]), readPerson(b.names[0])];
  if (norm(p.first_name) !== norm(q.first_name) || norm(p.last_name) !== norm(q.last_name) || p.dob !== q.dob || p.member_id !== q.member_id) return false;
  return a.benefits.length === b.benefits.length && a.benefits.every((x, i) => benefitSource(x) === benefitSource(b.benefits[i]!));
}

/** A family row's figure and network: its EB01, and EB12 Y, N or both (none, W, U). */
const familyKey = (b: BenefitLoop) => {
  const net = el(b.seg, 12);
  return `${el(b.seg, 1)} ${namesNetwork({ net }) ? net : 'both'}`;
};

const isFamilyRow = (b: BenefitLoop) => b.seg.id === 'EB' && isFamilyLevel(el(b.seg, 2));
const isStatusRow = (b: BenefitLoop) => b.seg.id === 'EB' && statusCoverage(el(b.seg, 1)) !== undefined;

/**
 * The family figures (EB02 FAM and the other family levels) the other people's loops of the subscriber level
 * state: a family amount is every member's, wherever the payer writes it (TR3 2110C/2110D EB02). One is left
 * out when the patient's own loop states a family figure of the same EB01 for the same network that applies to
 * the encounter (`applies`: its dates, place, procedure): the patient's own then decides. A dependent patient whose
 * own loop states no status row (EB01 1-8) takes the subscriber loop's status rows sent for no coverage level (EB02
 * empty: the plan the dependent is enrolled under), never one for a class (IND, EMP: the subscriber's own). `others`
 * lists the other people's rows not taken (for the explanation).
 */
export function familyRowsElsewhere(
  subscriber: HlLevel,
  patient: HlLevel,
  applies: (b: BenefitLoop) => boolean,
): { rows: BenefitLoop[]; others: BenefitLoop[] } {
  const own = new Set<string>();
  for (const b of patient.benefits) if (isFamilyRow(b) && applies(b)) own.add(familyKey(b));
  // A dependent's loop without any status row is covered as the subscriber's plan says, when it says it for no one class.
  const plansStatus = patient !== subscriber && !patient.benefits.some(isStatusRow);
  const rows: BenefitLoop[] = [];
  const others: BenefitLoop[] = [];
  for (const level of [subscriber, ...subscriber.children]) {
    if (level === patient || (level !== subscriber && level.kind !== 'dependent')) continue;
    for (const b of level.benefits) {
      if (b.seg.id !== 'EB') continue;
      if (isFamilyRow(b) && !own.has(familyKey(b))) rows.push(b);
      else if (plansStatus && level === subscriber && isStatusRow(b) && el(b.seg, 2) === '') rows.push(b);
      else others.push(b);
    }
  }
  return { rows, others };
}

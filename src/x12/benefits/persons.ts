/**
 * A copay or coinsurance stated for a class of persons (EB02 coverage level: children only, the spouse only,
 * dependents only, the employee only) is not the patient's when the patient is surely not one of them
 * (docs/estimates.md 1.1, "The benefit matrix"; TR3 005010X279A1 2110C/2110D EB02). The classes are data
 * (eb02.json and ins02.json `persons`); a patient whose relationship no table reads is in no known class,
 * so only the subscriber's own class (and the subscriber's exclusion) decides for them.
 */
import { isFamilyLevel, levelPersons, relationPersons } from '../code-tables/attributes.ts';
import { admits, ageCondition, ageOnly, type AgeRange } from './age-condition.ts';
import type { Benefit } from '../eb-benefit.ts';
import { el } from '../tokenizer.ts';
import { isShareInfo } from './rows.ts';

/** The classes the tables name (engine-literals.test.ts holds them to these). */
type Persons = 'subscriber' | 'spouse' | 'children' | 'dependents';

/** Who the patient is: the subscriber, or a dependent with the INS02 relationship sent ('' when none). */
export interface PatientPersons {
  dependent: boolean;
  relation: string;
}

/** Whether the patient is one of `persons`: true, false, or null when the 271 does not say. */
function isOne(persons: Persons, p: PatientPersons): boolean | null {
  if (!p.dependent) return persons === 'subscriber';
  if (persons === 'subscriber') return false;
  if (persons === 'dependents') return true;
  const own = relationPersons(p.relation);
  if (own === undefined) return null;
  return own === persons;
}

const WORDS: Readonly<Record<Persons, string>> = {
  subscriber: 'the subscriber only',
  spouse: 'the spouse only',
  children: 'children only',
  dependents: 'dependents only',
};

/** Why a cost-share row is another person's (its EB02 names a class the patient is not of), or null. */
export function otherPersons(b: Benefit, p: PatientPersons | null): string | null {
  if (p === null || !isShareInfo(b.info)) return null;
  const level = el(b.loop.seg, 2);
  const persons = levelPersons(level) as Persons | undefined;
  if (persons === undefined || isOne(persons, p) !== false) return null;
  const who = p.dependent ? `a dependent${p.relation ? ` (INS02 ${p.relation})` : ''}` : 'the subscriber';
  return `its coverage level (EB02 ${level}) is ${WORDS[persons]}; the patient is ${who}`;
}

/** A row's content apart from its coverage level: EB01, EB03, EB12, EB13 and its places (2115C III). */
function shareKey(b: Benefit): string {
  const seg = b.loop.seg;
  let key = `${el(seg, 1)}|${el(seg, 3)}|${el(seg, 12)}|${el(seg, 13)}`;
  for (const iii of b.loop.iii) key += `|${el(iii, 1)}:${el(iii, 2)}`;
  return key;
}

/**
 * The patient's own class's rows and what they replace: a cost-share row whose EB02 names a class the patient is
 * surely one of (CHD for a child, SPO for a spouse, DEP for a dependent, EMP for the subscriber), each of its MSGs an
 * age condition (age-condition.ts) the patient's age on the date of service meets, states the benefit for them: an
 * individual row (EB02 IND or none) alike but for its level and amount is the rate for everyone else (the narrower
 * class governs, as the more specific service type does: TR3 005010X279A1 1.4.7). Returns the replaced rows with
 * why, and the own class's rows admitted (their age conditions met: share-messages.ts reads those words as decided);
 * order-free (the rows' content decides).
 */
export function replacedByOwnClass(
  rows: readonly Benefit[],
  p: PatientPersons | null,
  age: number | null,
  applies: (b: Benefit) => boolean,
): { replaced: Map<Benefit, string>; admitted: Set<Benefit> } {
  const out = new Map<Benefit, string>();
  const admitted = new Set<Benefit>();
  if (p === null) return { replaced: out, admitted };
  const own = new Map<string, string>();
  for (const b of rows) {
    if (!isShareInfo(b.info) || b.unknown.length > 0) continue;
    const level = el(b.loop.seg, 2);
    const persons = levelPersons(level) as Persons | undefined;
    if (persons === undefined || isOne(persons, p) !== true || !applies(b)) continue;
    let fits = true;
    for (const msg of b.loop.msg) {
      const range = ageCondition(el(msg, 1));
      if (range === null || age === null || !admits(range, age)) fits = false;
    }
    if (!fits) continue;
    own.set(shareKey(b), `EB02 ${level}, ${WORDS[persons]}`);
    admitted.add(b);
  }
  if (own.size === 0) return { replaced: out, admitted };
  for (const b of rows) {
    if (!isShareInfo(b.info)) continue;
    const level = el(b.loop.seg, 2);
    if (levelPersons(level) !== undefined || isFamilyLevel(level)) continue;
    const by = own.get(shareKey(b));
    if (by !== undefined) out.set(b, `the row for the patient's own class of persons (${by}) states this benefit for them; this one is everyone else's`);
  }
  return { replaced: out, admitted };
}

const rangeWords = (r: AgeRange) => (r.min === null ? `under ${r.max}` : r.max === null ? `${r.min} and older` : `${r.min} to ${r.max - 1}`);

/**
 * A copay or coinsurance row whose MSGs state only the ages it is for (age-condition.ts ageOnly; docs/estimates.md 1.1,
 * "A cost share for an age"): 'other' with why when the patient's age is outside one of them (another person's share),
 * 'admitted' when inside every one, null when the row states no such age, or an age MSG says more, or the age is unknown.
 */
export function ageFit(b: Benefit, age: number | null): { fit: 'admitted' } | { fit: 'other'; why: string } | null {
  if (age === null || b.loop.msg.length === 0 || !isShareInfo(b.info)) return null;
  let stated = false;
  for (const msg of b.loop.msg) {
    const text = el(msg, 1);
    if (ageCondition(text) === null) continue;
    const range = ageOnly(text);
    if (range === null) return null;
    if (!admits(range, age)) return { fit: 'other', why: `its MSG limits it to members ${rangeWords(range)} ("${text.trim()}"); the patient is ${age}` };
    stated = true;
  }
  return stated ? { fit: 'admitted' } : null;
}

/**
 * A copay or coinsurance stated for a class of persons (EB02 coverage level: children only, the spouse only,
 * dependents only, the employee only) is not the patient's when the patient is surely not one of them
 * (docs/estimates.md 1.1, "The benefit matrix"; TR3 005010X279A1 2110C/2110D EB02). The classes are data
 * (eb02.json and ins02.json `persons`); a patient whose relationship no table reads is in no known class,
 * so only the subscriber's own class (and the subscriber's exclusion) decides for them.
 */
import { levelPersons, relationPersons } from '../code-tables/attributes.ts';
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

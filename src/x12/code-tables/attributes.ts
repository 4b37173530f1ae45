/**
 * What the engine reads of a code, asked of the tables (issue 38: the engine names no code value).
 * Each reader below is an attribute of one table's entries (code-tables/*.json), built into a Map
 * once at import; the engine compares the attribute (a meaning: "family", "copayment", "in"), never
 * the code. test/x12/engine-literals.test.ts fails on a code literal in the engine.
 */
import { codeTable, type BenefitRole, type CodeEntry, type CodeTableName } from './index.ts';

/** `code -> entry[key]` for the codes of `table` that carry the attribute (a null in the table is none: undefined). */
function attribute<K extends keyof CodeEntry>(table: CodeTableName, key: K): (code: string) => NonNullable<CodeEntry[K]> | undefined {
  const map = new Map<string, NonNullable<CodeEntry[K]>>();
  for (const [code, entry] of Object.entries(codeTable(table).codes)) {
    const value = entry[key];
    if (value !== undefined && value !== null) map.set(code, value);
  }
  return (code) => map.get(code);
}

/** The codes of `table` whose entry carries `key` (with `value`, when given): a code list written once, in the table. */
export function codesWith<K extends keyof CodeEntry>(table: CodeTableName, key: K, value?: CodeEntry[K]): ReadonlySet<string> {
  const out = new Set<string>();
  for (const [code, entry] of Object.entries(codeTable(table).codes))
    if (entry[key] !== undefined && entry[key] !== null && (value === undefined || entry[key] === value)) out.add(code);
  return out;
}

/** EB01: what the row is (eb01.json `role`); undefined for a code no rule reads. */
export const benefitRole: (info: string) => BenefitRole | undefined = attribute('eb01', 'role');
/** EB01 1-8: what the status says of coverage (eb01.json `coverage`). */
export const statusCoverage = attribute('eb01', 'coverage');

const family = codesWith('eb02', 'family');
/** EB02 coverage levels covering more than one person (eb02.json `family`); IND, EMP, SPO and an absent EB02 are individual. */
export const isFamilyLevel = (level: string) => family.has(level);

const mentalHealth = codesWith('eb03', 'mentalHealth');
/** EB03 of mental health itself (eb03.json `mentalHealth`: not substance abuse, 98 or 30). */
export const isMentalHealthType = (code: string) => mentalHealth.has(code);
const planLevel = codesWith('eb03', 'planLevel');
/** EB03 of the plan as a whole (eb03.json `planLevel`). */
export const isPlanLevelType = (code: string) => planLevel.has(code);
/** EB02: the persons a cost share at the level is for (eb02.json `persons`); INS02: the persons a relationship is of (ins02.json). */
export const levelPersons = attribute('eb02', 'persons');
export const relationPersons = attribute('ins02', 'persons');
/** EB03: the limited program a service type belongs to, in words (eb03.json `limitedProgram`: family planning, emergency services, dental, vision, pharmacy). */
export const limitedProgramOf = attribute('eb03', 'limitedProgram');
/** EB03: the inpatient or outpatient care a service type is limited to (eb03.json `care`). */
export const serviceCare = attribute('eb03', 'care');
/** The specificity tiers in words, most specific first (eb03.json `tierNames`). */
export const TIER_NAMES: readonly string[] = (codeTable('eb03') as unknown as { tierNames: string[] }).tierNames;

/** EB04: the government program the code names (eb04.json `program`). */
export const programOf = attribute('eb04', 'program');
/** EB04: the Medicare part the code names (eb04.json `medicarePart`). */
export const medicarePartOf = attribute('eb04', 'medicarePart');
const premiumOnly = attribute('eb04', 'premiumOnly');
/** EB04: a program that pays the Medicare premium only (SLMB, eb04.json `premiumOnly`). */
export const paysPremiumOnly = (code: string) => premiumOnly(code) === true;

const exceeded = attribute('eb06', 'exceeded');
/** EB06: the limit is used up (eb06.json `exceeded`). */
export const isExceededPeriod = (period: string) => exceeded(period) === true;
const perAdmission = attribute('eb06', 'perAdmission');
/** EB06: stated per admission (eb06.json `perAdmission`). */
export const isPerAdmission = (period: string) => perAdmission(period) === true;

const span = attribute('eb06', 'span');
/** EB06 (or HSD05): the span an accumulator figure measures (eb06.json `span`): lifetime, episode, else the plan year. */
export const periodSpan = (period: string) => span(period) ?? 'plan_year';

/** EB11: whether the service needs authorization (eb11.json `authorization`). */
export const authorizationOf = attribute('eb11', 'authorization');

/** EB12: the network the row speaks for (eb12.json `network`); undefined when EB12 is absent or not a TR3 code. */
export const networkOf = attribute('eb12', 'network');

const placeQualifier = attribute('iii', 'placeOfService');
/** III01: III02 is a place of service (iii.json `placeOfService`). */
export const namesPlaceOfService = (qualifier: string) => placeQualifier(qualifier) === true;
const injuryQualifier = attribute('iii', 'natureOfInjury');
/** III01: III02 is a nature of injury, which limits the row to care for it (iii.json `natureOfInjury`). */
export const namesNatureOfInjury = (qualifier: string) => injuryQualifier(qualifier) === true;
/** A place of service in the explanation's words (place-of-service.json `words`), when it has them. */
export const placeWords = attribute('place-of-service', 'words');
const telehealth = attribute('place-of-service', 'telehealth');
/** A telehealth place of service (place-of-service.json `telehealth`). */
export const isTelehealthPlace = (code: string) => telehealth(code) === true;
const anyTelehealth = attribute('place-of-service', 'anyTelehealth');
/** A telehealth place whose code named all telehealth before 2022 (place-of-service.json `anyTelehealth`: 02, not 10). */
export const namesAnyTelehealth = (code: string) => anyTelehealth(code) === true;
const inpatientStay = attribute('place-of-service', 'inpatientStay');
/** A place of service of an inpatient stay (place-of-service.json `inpatientStay`). */
export const isInpatientPlace = (code: string) => inpatientStay(code) === true;

/** DTP01 of a 2100C/D name loop: what the date is of, and which date (dtp-2100.json `of`, `date`). */
export const memberDtp = { of: attribute('dtp-2100', 'of'), date: attribute('dtp-2100', 'date') };
/** DTP01 of a 2110C/D benefit loop (dtp-2110.json `of`, `date`). */
export const benefitDtp = { of: attribute('dtp-2110', 'of'), date: attribute('dtp-2110', 'date') };

/** REF01 of a name loop / a benefit loop: what REF02 holds (ref-2100.json, ref-2110.json `reads`). */
export const memberRef = attribute('ref-2100', 'reads');
export const benefitRef = attribute('ref-2110', 'reads');

const managedCare = attribute('nm101-2120', 'managedCare');
/** 2120 NM101: the part the entity plays, and an other payer's place in coordination of benefits (nm101-2120.json). */
export const entityRole = attribute('nm101-2120', 'entity');
export const coordinationOf = attribute('nm101-2120', 'coordination');
export const isManagedCareEntity = (code: string) => managedCare(code) === true;
/** NM108: what NM109 identifies (nm108-2120.json `identifies`). */
export const identifiedBy = attribute('nm108-2120', 'identifies');
const providerEntity = attribute('nm101-2120', 'provider');
/** 2120 NM101: a provider a figure can be tied to (nm101-2120.json `provider`: 1P, P3, 73, FA, 13, I3). */
export const isProviderEntity = (code: string) => providerEntity(code) === true;

const ins03Corrects = attribute('ins03', 'demographicsCorrected');
const ins04Corrects = attribute('ins04', 'demographicsCorrected');
/** INS03 and INS04 together: the payer corrected the member's identifying data (ins03.json, ins04.json). */
export const correctsDemographics = (ins03: string, ins04: string) => ins03Corrects(ins03) === true && ins04Corrects(ins04) === true;

/**
 * The names the eligibility v3 JSON model writes where X12 has codes, back to the codes: the X12
 * code lists of 005010X279A1 (each element's list named below). Answers spell some elements out
 * (a 2120 `entityIdentifier` "Secondary Payer", `entityType` "Non-Person Entity", an error's
 * `followupAction` "Please Correct and Resubmit", an HSD `quantityQualifier` "Visits"), as the
 * vendors' schemas list them (Optum's Medical Network Eligibility v3, Stedi's copy of it) and the
 * Change Healthcare sandbox answers show (test/fixtures/change-healthcare/). The tables are data, once
 * each, in eligibility-v3-codes.json; Stedi's reader and simulator use the same ones.
 */
import { codeTable, type CodeTableName } from '../../x12/code-tables/index.ts';
import CODES from './eligibility-v3-codes.json' with { type: 'json' };

type Table = Readonly<Record<string, string>>;

/** DTP01 date qualifiers (code list 374) by the JSON model's names (PlanDateInformation, BenefitsDateInformation). */
export const DATE_NAMES: Table = CODES.dateNames;
/** The reverse: the JSON model's name of a DTP01 qualifier (each qualifier has one). */
export const DATE_NAME_OF_QUALIFIER: Table = Object.fromEntries(Object.entries(DATE_NAMES).map(([name, q]) => [q, name]));
/**
 * The other spelling the vendors' schemas give a date: BenefitsDateInformation writes DTP 342
 * `premiumPaidtoDateBegin` (Optum's document and Stedi's copy), PlanDateInformation `premiumPaidToDateBegin`.
 * Read either; written only where the schema has it.
 */
export const DATE_NAME_SPELLINGS: Table = CODES.dateNameSpellings;
/** Names the schemas spell differently in one place (DATE_NAME_SPELLINGS) or as lists of DtpDate (`discharges`, `admissions`). */
export const DATE_NAME_ALIASES: Table = { ...DATE_NAME_SPELLINGS, ...CODES.dateLists };
/** NM101 entity identifier codes (code list 98) of 2120C/D, by name. */
export const ENTITY_IDENTIFIERS: Table = CODES.entityIdentifiers;
/** NM102 entity type qualifier (code list 1065). */
export const ENTITY_TYPES: Table = CODES.entityTypes;
/** NM108 identification code qualifiers (code list 66) of 2100A and 2120C/D, by name. */
export const ID_QUALIFIERS: Table = CODES.idQualifiers;
/** EB01 eligibility or benefit information codes (code list 1390), by the `name` the JSON model gives beside `code`. */
export const BENEFIT_CODES: Table = CODES.benefitCodes;
/** EB02 coverage level codes (code list 1207). */
export const COVERAGE_LEVELS: Table = CODES.coverageLevels;
/** EB11/EB12 yes/no condition codes (code list 1073). */
export const YES_NO: Table = CODES.yesNo;
/** AAA04 follow-up action codes (code list 889), by the prose the JSON model writes in `followupAction`. */
export const FOLLOWUP_ACTIONS: Table = CODES.followupActions;
/** PER03/05/07 communication number qualifiers (code list 365). */
export const COMMUNICATION_MODES: Table = CODES.communicationModes;
/** EB09 and HSD01 quantity qualifiers (code list 673). */
export const QUANTITY_QUALIFIERS: Table = CODES.quantityQualifiers;
/** EB06 and HSD05 time period qualifiers (code list 615). */
export const TIME_PERIODS: Table = CODES.timePeriods;
/** HSD03 unit or basis for measurement (code list 355). */
export const MEASUREMENT_UNITS: Table = CODES.measurementUnits;
/** 2100C/D REF01 qualifiers (code list 128) by PlanInformation's and ResponseMember's names. */
export const MEMBER_REFERENCES: Table = CODES.memberReferences;
/** REF03 descriptions PlanInformation gives for some of them. */
export const MEMBER_REFERENCE_DESCRIPTIONS: Table = CODES.memberReferenceDescriptions;
/** 2110C/D REF01 qualifiers by BenefitsAdditionalInformation's names (its `medicaidRecepientIdNumber` is the schema's spelling). */
export const BENEFIT_REFERENCES: Table = CODES.benefitReferences;
/** The subscriber's INS02 for a dependent (code list 1069), by the names `relationToSubscriber` spells. */
export const RELATIONSHIPS: Table = CODES.relationships;

/**
 * One of the 271 reader's own code lists (src/x12/code-tables, each code with its X12 `name`) as codes
 * by name, for the elements the JSON model also sends by name and no table above lists: the list the
 * 271 reader decides the code by is the list its name is read from, never a copy.
 */
function namesOf(table: CodeTableName): Table {
  return Object.fromEntries(Object.entries(codeTable(table).codes).map(([code, entry]) => [entry.name, code]));
}

/** EB03 service type codes (code list 1365), by the names `serviceTypes` spells (code-tables/eb03.json). */
export const SERVICE_TYPES: Table = namesOf('eb03');
/** EB04 insurance type codes (code list 1336), by `insuranceType` (code-tables/eb04.json). */
export const INSURANCE_TYPES: Table = namesOf('eb04');
/** EB06 time period qualifiers (code list 615 as EB06 allows it: TIME_PERIODS, HSD05's, and 13 24 Hours, 36 Admission). */
export const BENEFIT_TIME_PERIODS: Table = namesOf('eb06');
/** EB13-01 (C003-01) product or service ID qualifiers (code list 235), by name (code-tables/eb13-qualifier.json). */
export const PRODUCT_QUALIFIERS: Table = namesOf('eb13-qualifier');
/** HSD07 delivery or calendar pattern codes (code list 678), by name (code-tables/hsd07.json). */
export const DELIVERY_PATTERNS: Table = namesOf('hsd07');
/** HSD08 delivery time pattern codes (code list 679), by name (code-tables/hsd08.json). */
export const DELIVERY_TIMES: Table = namesOf('hsd08');

const fold = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/**
 * The code a JSON value stands for: the value itself when it is one of the list's codes, else the
 * code of the name it spells (ignoring case and punctuation); '' when it is neither.
 */
export function codeOf(list: Readonly<Record<string, string>>, value: string): string {
  const v = value.trim();
  if (v === '') return '';
  const { codes, names } = lookup(list);
  const upper = v.toUpperCase();
  if (codes.has(upper)) return upper;
  return names.get(fold(v)) ?? '';
}

/**
 * The code a JSON value stands for (codeOf), else the value as sent: no code table of the 271 reader
 * holds it, so its closed world (src/x12/benefits/closed-world.ts) makes the row unknown (docs/estimates.md
 * 1.1, "Closed world"), never read as if the element were absent. For the elements that price (EB01,
 * EB02, EB06, EB09, HSD, 2120 NM101, ...). '' when nothing is sent.
 */
export function codeOrAsSent(list: Readonly<Record<string, string>>, value: string): string {
  const v = value.trim();
  return codeOf(list, v) || v;
}

/**
 * The code of a JSON element sent as a code field and a name field (`inPlanNetworkIndicatorCode` and
 * `inPlanNetworkIndicator`, Availity's `roleCode` and `role`): the code either gives. A value neither
 * reads as, or two fields naming different codes, is returned as sent (`code/name`): no code table of
 * the 271 reader holds it, so its closed world (src/x12/benefits/closed-world.ts) makes the row unknown,
 * never read as if the element were absent. '' when neither field is sent.
 */
export function codeOfEither(list: Readonly<Record<string, string>>, code: string, name: string): string {
  const c = code.trim();
  const n = name.trim();
  const fromCode = codeOf(list, c);
  const fromName = codeOf(list, n);
  if ((c !== '' && fromCode === '') || (n !== '' && fromName === '') || (fromCode !== '' && fromName !== '' && fromCode !== fromName))
    return [c, n].filter((v) => v !== '').join('/');
  return fromCode || fromName;
}

/**
 * EB12 of a Stedi or v3 benefit (docs/estimates.md 1.1, "Network unknown"): Y, N, W, or U (Unknown),
 * which the 271 reader decides (code-tables/eb12.json: the row prices neither network); anything else
 * as sent, so the row is unknown, never a row for both networks.
 */
export const networkIndicator = (code: string, name: string) => codeOfEither(YES_NO, code, name);

/** A code list's codes, and its codes by folded name (the first name of a fold wins), built once per list. */
interface Lookup {
  codes: ReadonlySet<string>;
  names: ReadonlyMap<string, string>;
}
const LOOKUPS = new WeakMap<object, Lookup>();

function lookup(list: Readonly<Record<string, string>>): Lookup {
  let found = LOOKUPS.get(list);
  if (!found) {
    const names = new Map<string, string>();
    for (const [name, code] of Object.entries(list)) {
      const f = fold(name);
      if (!names.has(f)) names.set(f, code);
    }
    found = { codes: new Set(Object.values(list)), names };
    LOOKUPS.set(list, found);
  }
  return found;
}

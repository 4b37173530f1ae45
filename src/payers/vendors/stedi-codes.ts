/**
 * Stedi's JSON spells several X12 codes out as names. Each table below pairs Stedi's published enum
 * (Stedi Healthcare OpenAPI, docs/going-live.md "Stedi") with the code the X12 005010X279A1 code list
 * gives it, so the reader (stedi-read.ts) and the simulator speak the same words.
 */
import { COMMUNICATION_MODES, ENTITY_IDENTIFIERS, ENTITY_TYPES, FOLLOWUP_ACTIONS } from './eligibility-v3-codes.ts';

/**
 * Names Stedi shares with the eligibility v3 JSON model, which are the X12 code lists' own names:
 * one table each (eligibility-v3-codes.ts). 2120C NM101 (the 25 entity codes a benefit's related
 * entity allows), NM102, AAA04 (Stedi's wording of Y is the code's 5010 meaning) and PER03/05/07.
 */
export const RELATED_ENTITY_CODES = ENTITY_IDENTIFIERS;
export const ENTITY_TYPE_CODES = ENTITY_TYPES;
export const FOLLOWUP_ACTION_CODES = FOLLOWUP_ACTIONS;
export const COMMUNICATION_MODE_CODES = COMMUNICATION_MODES;

/** 2100A NM101 (PayerEntityIdentifier). */
export const PAYER_ENTITY_CODES: Readonly<Record<string, string>> = {
  'Third-Party Administrator': '2B',
  Employer: '36',
  'Gateway Provider': 'GP',
  'Plan Sponsor': 'P5',
  Payer: 'PR',
};

/** 2100B NM101 (ResponseProviderEntityIdentifier). */
export const PROVIDER_ENTITY_CODES: Readonly<Record<string, string>> = {
  Provider: '1P',
  'Third-Party Administrator': '2B',
  Employer: '36',
  Hospital: '80',
  Facility: 'FA',
  'Gateway Provider': 'GP',
  'Plan Sponsor': 'P5',
  Payer: 'PR',
};

/** INS02 of a dependent (DependentRelationshipCode) with Stedi's name for it (DependentRelationship); the subscriber is 18 Self. */
export const RELATIONSHIP_NAMES: Readonly<Record<string, string>> = {
  '01': 'Spouse',
  '18': 'Self',
  '19': 'Child',
  '20': 'Employee',
  '21': 'Unknown',
  '39': 'Organ Donor',
  '40': 'Cadaver Donor',
  '53': 'Life Partner',
  G8: 'Other Relationship',
};

/** DTP01 of the 271 (005010X279A1) by the names Stedi's date objects use. */
export const STEDI_DATE_QUALIFIERS: Readonly<Record<string, string>> = {
  discharge: '096',
  issue: '102',
  effectiveDateOfChange: '152',
  periodStart: '193',
  periodEnd: '194',
  completion: '198',
  coordinationOfBenefits: '290',
  plan: '291',
  benefit: '292',
  primaryCareProvider: '295',
  latestVisitOrConsultation: '304',
  eligibility: '307',
  added: '318',
  cobraBegin: '340',
  cobraEnd: '341',
  premiumPaidToDateBegin: '342',
  premiumPaidtoDateBegin: '342',
  premiumPaidToDateEnd: '343',
  planBegin: '346',
  planEnd: '347',
  benefitBegin: '348',
  benefitEnd: '349',
  eligibilityBegin: '356',
  eligibilityEnd: '357',
  enrollment: '382',
  admission: '435',
  dateOfDeath: '442',
  certification: '458',
  service: '472',
  policyEffective: '539',
  policyExpiration: '540',
  dateOfLastUpdate: '636',
  status: '771',
};

/** A REF by the field Stedi names it: [field, REF01 qualifier, the field holding REF03 (a description)]. */
export type RefField = readonly [field: string, qualifier: string, description?: string];

/** 2100C/D REF of the member loop, by `planInformation`'s names (a member's own fields use the first three). */
export const PLAN_REFS: readonly RefField[] = [
  ['groupNumber', '6P', 'groupDescription'],
  ['planNumber', '18', 'planDescription'],
  ['planNetworkIdNumber', 'N6', 'planNetworkIdDescription'],
  ['policyNumber', '1L'],
  ['insurancePolicyNumber', 'IG'],
  ['memberId', '1W'],
  ['caseNumber', '3H'],
  ['familyUnitNumber', '49'],
  ['classOfContractCode', 'CE'],
  ['contractNumber', 'CT'],
  ['medicalRecordIdentificationNumber', 'EA'],
  ['patientAccountNumber', 'EJ'],
  ['hicNumber', 'F6'],
  ['idCardSerialNumber', 'GH'],
  ['idCardNumber', 'HJ'],
  ['issueNumber', 'IF'],
  ['medicaidRecipientIdNumber', 'NQ'],
  ['priorIdNumber', 'Q4'],
  ['agencyClaimNumber', 'Y4'],
  ['alternativeListId', 'ALS'],
  ['coverageListId', 'CLI'],
  ['drugFormularyNumber', 'FO'],
];

/** 2110C/D REF of a benefit, by `benefitsAdditionalInformation`'s names. */
export const BENEFIT_REFS: readonly RefField[] = [
  ['groupNumber', '6P', 'groupDescription'],
  ['planNumber', '18', 'planDescription'],
  ['planNetworkIdNumber', 'N6', 'planNetworkDescription'],
  ['policyNumber', '1L'],
  ['insurancePolicyNumber', 'IG'],
  ['memberId', '1W'],
  ['familyUnitNumber', '49'],
  ['referralNumber', '9F'],
  ['alternativeListId', 'ALS'],
  ['coverageListId', 'CLI'],
  ['hicNumber', 'F6'],
  ['drugFormularyNumber', 'FO'],
  ['priorAuthorizationNumber', 'G1'],
  ['medicalAssistanceCategory', 'M7'],
  ['medicaidRecipientIdNumber', 'NQ'],
];

const folded = (table: Readonly<Record<string, string>>) => new Map(Object.entries(table).map(([name, code]) => [name.toLowerCase(), code]));
const FOLDED = new WeakMap<object, Map<string, string>>();

/**
 * The code for one of Stedi's names (any case), or the value itself when it already is one of the
 * table's codes; null when it is neither (a payer's "non-compliant value": never guessed from its letters).
 */
export function codeFor(table: Readonly<Record<string, string>>, value: string): string | null {
  let map = FOLDED.get(table);
  if (!map) FOLDED.set(table, (map = folded(table)));
  const v = value.trim();
  return map.get(v.toLowerCase()) ?? (Object.values(table).includes(v) ? v : null);
}

/** Stedi's name for a code (the reverse of `codeFor`), or null. */
export function nameFor(table: Readonly<Record<string, string>>, code: string): string | null {
  return Object.entries(table).find(([, c]) => c === code)?.[0] ?? null;
}

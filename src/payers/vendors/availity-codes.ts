/** The X12 codes behind Availity's coverage JSON (availity-271.ts writes them back; the simulator reads them out). */
import type { AVAILITY_AMOUNTS, AVAILITY_NETWORKS } from './availity-schema.ts';
import { BENEFIT_CODES, COVERAGE_LEVELS } from './eligibility-v3-codes.ts';

const byCode = (table: Readonly<Record<string, string>>, codes: (code: string) => boolean = () => true): Readonly<Record<string, string>> =>
  Object.fromEntries(
    Object.entries(table)
      .filter(([, code]) => codes(code))
      .map(([name, code]) => [code, name]),
  );

/** EB01 coverage status codes with their X12 TR3 names (Availity's `status` words, as "Active Coverage" for "1"; read case-blind). */
export const AVAILITY_STATUS_NAMES = byCode(BENEFIT_CODES, (code) => /^[1-8]$/.test(code));

/** EB02 coverage levels (X12 TR3) by the words of `level`, for an item without `levelCode`. */
export const AVAILITY_LEVEL_NAMES = byCode(COVERAGE_LEVELS);

export const EB01_BY_AMOUNT: Readonly<Record<(typeof AVAILITY_AMOUNTS)[number], string>> = {
  coInsurance: 'A',
  coPayment: 'B',
  deductibles: 'C',
  outOfPocket: 'G',
};
/** The benefit detail lists with an EB01 of their own (statusDetails items carry their statusCode; preexistingConditions has no EB01). */
export const EB01_BY_DETAIL: Readonly<Record<string, string>> = {
  benefitDescriptions: 'D',
  costContainment: 'J',
  coverageBasis: 'CB',
  exclusions: 'E',
  limitations: 'F',
  nonCovered: 'I',
  reserve: 'K',
};
export const EB12_BY_NETWORK: Readonly<Record<(typeof AVAILITY_NETWORKS)[number], string>> = {
  inNetwork: 'Y',
  outOfNetwork: 'N',
  notApplicableNetwork: 'W',
  noNetwork: '',
};

/**
 * The closed world of a NetworkBenefit item (availity-271.ts `unreadFields`): every field Availity's
 * document defines on it is written as the X12 element it transliterates, or ignored here with the
 * reason it prices nothing. A field in neither, or a written one whose value cannot be read (an amount
 * that is no number, a period or place given only in words), is written as an REF whose qualifier is
 * the field's name: no code table holds it, so the 271 reader's closed world makes the row unknown
 * (src/x12/benefits/closed-world.ts), never priced as if the field were absent.
 */
export const AVAILITY_ITEM_WRITTEN: readonly string[] = [
  'amount',
  'amountTimePeriodCode',
  'authorizationRequired',
  'authorizationRequiredUnknown',
  'benefitBeginDate',
  'benefitEndDate',
  'deliveryInformation',
  'description',
  'insuranceTypeCode',
  'level',
  'levelCode',
  'payerNotes',
  'placeOfServiceCode',
  'planName',
  'quantity',
  'quantityQualifierCode',
  'remaining',
  'remainingTimePeriodCode',
  'status',
  'statusCode',
  'total',
  'totalTimePeriodCode',
  'units',
];

/** Item dates written as the 2110 DTP qualifier they stand for; the 271 reader's dtp-2110 table decides each. */
export const AVAILITY_ITEM_DATES: Readonly<Record<string, string>> = {
  addedDate: '318',
  admissionDate: '435',
  completionDate: '198',
  coordinationOfBenefitsDate: '290',
  dischargeDate: '096',
  eligibilityEndDate: '357',
  eligibilityStartDate: '356',
  lastUpdateDate: '636',
  lastVisitDate: '304',
  periodEndDate: '194',
  periodStartDate: '193',
  planStartDate: '346',
  primaryCareProviderDate: '295',
  serviceDate: '472',
  statusDate: '771',
};

/** Item identifiers written as the 2110 REF qualifier they stand for (with the name field as REF03); the ref-2110 table decides each. */
export const AVAILITY_ITEM_REFERENCES: Readonly<Record<string, readonly [string, string?]>> = {
  familyUnitNumber: ['49'],
  groupNumber: ['6P', 'groupName'],
  healthInsuranceClaimNumber: ['F6'],
  insurancePolicyNumber: ['IG'],
  medicaidRecipientIdentificationNumber: ['NQ'],
  memberIdentificationNumber: ['1W'],
  planNetworkId: ['N6', 'planNetworkName'],
  planNumber: ['18'],
  policyNumber: ['IG'],
  priorAuthorizationNumber: ['G1'],
  referralNumber: ['9F'],
};

/** Item fields that price nothing, with why; a words field is ignored only beside its code (else it is unread). */
export const AVAILITY_ITEM_IGNORED: Readonly<Record<string, string>> = {
  amountTimePeriod: 'the words of amountTimePeriodCode',
  contacts: 'ways to reach the payer (phone, fax, URL): they price nothing',
  insuranceType: 'the words of insuranceTypeCode',
  placeOfService: 'the words of placeOfServiceCode',
  quantityQualifier: 'the words of quantityQualifierCode',
  remainingTimePeriod: 'the words of remainingTimePeriodCode',
  totalTimePeriod: 'the words of totalTimePeriodCode',
};

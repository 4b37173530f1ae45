/** The X12 codes behind Availity's coverage JSON (availity-271.ts writes them back; the simulator reads them out). */
import type { AVAILITY_AMOUNTS, AVAILITY_NETWORKS } from './availity-schema.ts';

/** EB01 coverage status codes with their X12 TR3 names (Availity's `status` words, as "Active Coverage" for "1"; read case-blind). */
export const AVAILITY_STATUS_NAMES: Readonly<Record<string, string>> = {
  '1': 'Active Coverage',
  '2': 'Active - Full Risk Capitation',
  '3': 'Active - Services Capitated',
  '4': 'Active - Services Capitated to Primary Care Physician',
  '5': 'Active - Pending Investigation',
  '6': 'Inactive',
  '7': 'Inactive - Pending Eligibility Update',
  '8': 'Inactive - Pending Investigation',
};

/** EB02 coverage levels (X12 TR3) by the words of `level`, for an item without `levelCode`. */
export const AVAILITY_LEVEL_NAMES: Readonly<Record<string, string>> = {
  CHD: 'Children Only',
  DEP: 'Dependents Only',
  ECH: 'Employee and Children',
  EMP: 'Employee Only',
  ESP: 'Employee and Spouse',
  FAM: 'Family',
  IND: 'Individual',
  SPC: 'Spouse and Children',
  SPO: 'Spouse Only',
};

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

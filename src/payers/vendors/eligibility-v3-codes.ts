/**
 * The names the eligibility v3 JSON model writes where X12 has codes, back to the codes: the X12
 * code lists of 005010X279A1 (each element's list named below). Answers spell some elements out
 * (a 2120 `entityIdentifier` "Secondary Payer", `entityType` "Non-Person Entity", an error's
 * `followupAction` "Please Correct and Resubmit", an HSD `quantityQualifier` "Visits"), as the
 * vendors' schemas list them (Optum's Medical Network Eligibility v3, Stedi's copy of it) and the
 * Change Healthcare sandbox answers show (test/fixtures/change-healthcare/).
 */

/** DTP01 date qualifiers (code list 374) by the JSON model's names (PlanDateInformation, BenefitsDateInformation). */
export const DATE_NAMES: Readonly<Record<string, string>> = {
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

/** Names the schemas spell differently in one place (BenefitsDateInformation's `premiumPaidtoDateBegin`) or as lists of DtpDate. */
export const DATE_NAME_ALIASES: Readonly<Record<string, string>> = {
  premiumPaidtoDateBegin: '342',
  discharges: '096',
  admissions: '435',
};

/** NM101 entity identifier codes (code list 98) of 2120C/D, by name. */
export const ENTITY_IDENTIFIERS: Readonly<Record<string, string>> = {
  'Contracted Service Provider': '13',
  'Preferred Provider Organization (PPO)': '1I',
  Provider: '1P',
  'Third-Party Administrator': '2B',
  Employer: '36',
  'Other Physician': '73',
  Facility: 'FA',
  'Gateway Provider': 'GP',
  Group: 'GW',
  'Independent Physicians Association (IPA)': 'I3',
  'Insured or Subscriber': 'IL',
  'Legal Representative': 'LR',
  'Origin Carrier': 'OC',
  'Primary Care Provider': 'P3',
  'Prior Insurance Carrier': 'P4',
  'Plan Sponsor': 'P5',
  Payer: 'PR',
  'Primary Payer': 'PRP',
  'Secondary Payer': 'SEP',
  'Tertiary Payer': 'TTP',
  'Party Performing Verification': 'VER',
  Vendor: 'VN',
  'Organization Completing Configuration Change': 'VY',
  'Utilization Management Organization': 'X3',
  'Managed Care Organization': 'Y2',
};

/** NM102 entity type qualifier (code list 1065). */
export const ENTITY_TYPES: Readonly<Record<string, string>> = { Person: '1', 'Non-Person Entity': '2' };

/** NM108 identification code qualifiers (code list 66) of 2100A and 2120C/D, by name. */
export const ID_QUALIFIERS: Readonly<Record<string, string>> = {
  "Employer's Identification Number": '24',
  'Social Security Number': '34',
  'Electronic Transmitter Identification Number (ETIN)': '46',
  'Facility Identification': 'FA',
  "Federal Taxpayer's Identification Number": 'FI',
  'Standard Unique Health Identifier for each Individual in the United States': 'II',
  'Member Identification Number': 'MI',
  'National Association of Insurance Commissioners (NAIC) Identification': 'NI',
  'Payor Identification': 'PI',
  'Pharmacy Processor Number': 'PP',
  'Service Provider Number': 'SV',
  'Centers for Medicare and Medicaid Services PlanID': 'XV',
  'Centers for Medicare and Medicaid Services National Provider Identifier': 'XX',
};

/** EB01 eligibility or benefit information codes (code list 1390), by the `name` the JSON model gives beside `code`. */
export const BENEFIT_CODES: Readonly<Record<string, string>> = {
  'Active Coverage': '1',
  'Active - Full Risk Capitation': '2',
  'Active - Services Capitated': '3',
  'Active - Services Capitated to Primary Care Physician': '4',
  'Active - Pending Investigation': '5',
  Inactive: '6',
  'Inactive - Pending Eligibility Update': '7',
  'Inactive - Pending Investigation': '8',
  'Co-Insurance': 'A',
  'Co-Payment': 'B',
  Deductible: 'C',
  'Coverage Basis': 'CB',
  'Benefit Description': 'D',
  Exclusions: 'E',
  Limitations: 'F',
  'Out of Pocket (Stop Loss)': 'G',
  Unlimited: 'H',
  'Non-Covered': 'I',
  'Cost Containment': 'J',
  Reserve: 'K',
  'Primary Care Provider': 'L',
  'Pre-existing Condition': 'M',
  'Managed Care Coordinator': 'MC',
  'Services Restricted to Following Provider': 'N',
  'Not Deemed a Medical Necessity': 'O',
  'Benefit Disclaimer': 'P',
  'Second Surgical Opinion Required': 'Q',
  'Other or Additional Payor': 'R',
  'Prior Year(s) History': 'S',
  'Card(s) Reported Lost/Stolen': 'T',
  'Contact Following Entity for Eligibility or Benefit Information': 'U',
  'Cannot Process': 'V',
  'Other Source of Data': 'W',
  'Health Care Facility': 'X',
  'Spend Down': 'Y',
};

/** EB02 coverage level codes (code list 1207). */
export const COVERAGE_LEVELS: Readonly<Record<string, string>> = {
  'Children Only': 'CHD',
  'Dependents Only': 'DEP',
  'Employee and Children': 'ECH',
  'Employee Only': 'EMP',
  'Employee and Spouse': 'ESP',
  Family: 'FAM',
  Individual: 'IND',
  'Spouse and Children': 'SPC',
  'Spouse Only': 'SPO',
};

/** EB11/EB12 yes/no condition codes (code list 1073). */
export const YES_NO: Readonly<Record<string, string>> = { Yes: 'Y', No: 'N', Unknown: 'U', 'Not Applicable': 'W' };

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

/** AAA04 follow-up action codes (code list 889), by the prose the JSON model writes in `followupAction`. */
export const FOLLOWUP_ACTIONS: Readonly<Record<string, string>> = {
  'Please Correct and Resubmit': 'C',
  'Resubmission Not Allowed': 'N',
  'Please Resubmit Original Transaction': 'P',
  'Resubmission Allowed': 'R',
  'Do Not Resubmit; Inquiry Initiated to a Third Party': 'S',
  'Please Wait 30 Days and Resubmit': 'W',
  'Please Wait 10 Days and Resubmit': 'X',
  'Do Not Resubmit; We Will Hold Your Request and Respond Again Shortly': 'Y',
};

/** PER03/05/07 communication number qualifiers (code list 365). */
export const COMMUNICATION_MODES: Readonly<Record<string, string>> = {
  'Electronic Data Interchange Access Number': 'ED',
  'Electronic Mail': 'EM',
  Facsimile: 'FX',
  Telephone: 'TE',
  'Uniform Resource Locator (URL)': 'UR',
  'Telephone Extension': 'EX',
  'Work Phone Number': 'WP',
};

/** EB09 and HSD01 quantity qualifiers (code list 673). */
export const QUANTITY_QUALIFIERS: Readonly<Record<string, string>> = {
  Minimum: '8H',
  'Quantity Used': '99',
  'Covered - Actual': 'CA',
  'Covered - Estimated': 'CE',
  'Number of Co-insurance Days': 'D3',
  'Deductible Blood Units': 'DB',
  Days: 'DY',
  Units: 'FL',
  Hours: 'HS',
  'Life-time Reserve - Actual': 'LA',
  'Life-time Reserve - Estimated': 'LE',
  Maximum: 'M2',
  Month: 'MN',
  'Number of Services or Procedures': 'P6',
  'Quantity Approved': 'QA',
  'Age, High Value': 'S7',
  'Age, Low Value': 'S8',
  Visits: 'VS',
  Years: 'YY',
};

/** EB06 and HSD05 time period qualifiers (code list 615). */
export const TIME_PERIODS: Readonly<Record<string, string>> = {
  Hour: '6',
  Day: '7',
  Years: '21',
  'Service Year': '22',
  'Calendar Year': '23',
  'Year to Date': '24',
  Contract: '25',
  Episode: '26',
  Visit: '27',
  Outlier: '28',
  Remaining: '29',
  Exceeded: '30',
  'Not Exceeded': '31',
  Lifetime: '32',
  'Lifetime Remaining': '33',
  Month: '34',
  Week: '35',
};

/** HSD03 unit or basis for measurement (code list 355). */
export const MEASUREMENT_UNITS: Readonly<Record<string, string>> = { Days: 'DA', Months: 'MO', Visits: 'VS', Week: 'WK', Years: 'YR' };

/** 2100C/D REF01 qualifiers (code list 128) by PlanInformation's and ResponseMember's names. */
export const MEMBER_REFERENCES: Readonly<Record<string, string>> = {
  planNumber: '18',
  policyNumber: '1L',
  memberId: '1W',
  caseNumber: '3H',
  familyUnitNumber: '49',
  groupNumber: '6P',
  classOfContractCode: 'CE',
  contractNumber: 'CT',
  medicalRecordIdentificationNumber: 'EA',
  patientAccountNumber: 'EJ',
  hicNumber: 'F6',
  idCardSerialNumber: 'GH',
  idCardNumber: 'HJ',
  issueNumber: 'IF',
  insurancePolicyNumber: 'IG',
  eligibilityCategory: 'MRC',
  planNetworkIdNumber: 'N6',
  medicaidRecipientIdNumber: 'NQ',
  priorIdNumber: 'Q4',
  agencyClaimNumber: 'Y4',
};

/** REF03 descriptions PlanInformation gives for some of them. */
export const MEMBER_REFERENCE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  planNumber: 'planDescription',
  groupNumber: 'groupDescription',
  planNetworkIdNumber: 'planNetworkIdDescription',
};

/** 2110C/D REF01 qualifiers by BenefitsAdditionalInformation's names. */
export const BENEFIT_REFERENCES: Readonly<Record<string, string>> = {
  planNumber: '18',
  policyNumber: '1L',
  memberId: '1W',
  caseNumber: '3H',
  familyUnitNumber: '49',
  groupNumber: '6P',
  referralNumber: '9F',
  alternativeListId: 'ALS',
  classOfContractCode: 'CE',
  coverageListId: 'CLI',
  contractNumber: 'CT',
  medicalRecordIdentificationNumber: 'EA',
  electronicDevicePin: 'EL',
  submitterIdentificationNumber: 'EO',
  patientAccountNumber: 'EJ',
  hicNumber: 'F6',
  drugFormularyNumber: 'FO',
  priorAuthorizationNumber: 'G1',
  idCardSerialNumber: 'GH',
  idCardNumber: 'HJ',
  issueNumber: 'IF',
  insurancePolicyNumber: 'IG',
  medicalAssistanceCategory: 'M7',
  eligibilityCategory: 'MRC',
  planNetworkIdNumber: 'N6',
  medicaidRecepientIdNumber: 'NQ',
  priorIdNumber: 'Q4',
  agencyClaimNumber: 'Y4',
};

/** The subscriber's INS02 for a dependent (code list 1069), by the names `relationToSubscriber` spells. */
export const RELATIONSHIPS: Readonly<Record<string, string>> = {
  Spouse: '01',
  Child: '19',
  Employee: '20',
  Unknown: '21',
  'Handicapped Dependent': '22',
  'Sponsored Dependent': '23',
  'Dependent of a Minor Dependent': '24',
  'Significant Other': '29',
  Mother: '32',
  Father: '33',
  'Other Adult': '34',
  'Emancipated Minor': '36',
  'Organ Donor': '39',
  'Cadaver Donor': '40',
  'Injured Plaintiff': '41',
  'Child Where Insured Has No Financial Responsibility': '43',
  'Life Partner': '53',
  'Other Relationship': 'G8',
  Self: '18',
};

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

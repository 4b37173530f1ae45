/**
 * The URLs the FHIR door names: HL7's code systems, and our own extensions and code systems, each
 * defined in docs/fhir.md. Our URLs are names (canonical URLs), not addresses a client must fetch.
 */

/** Where our own definitions live by name; docs/fhir.md#extensions holds each one. */
export const COVERAGE_FHIR_BASE = 'https://coverage-service.org/fhir';

export const EXT = {
  /** The member's and the payer's share of this session, per deductible phase (docs/fhir.md#session-cost-share). */
  sessionCostShare: `${COVERAGE_FHIR_BASE}/StructureDefinition/session-cost-share`,
  /** One alert of the answer (docs/fhir.md#alert). */
  alert: `${COVERAGE_FHIR_BASE}/StructureDefinition/alert`,
  /** The plan type and the insurance type of the plan (docs/fhir.md#plan-type-and-insurance-type). */
  planType: `${COVERAGE_FHIR_BASE}/StructureDefinition/plan-type`,
  insuranceType: `${COVERAGE_FHIR_BASE}/StructureDefinition/insurance-type`,
  /** On a request: whether the provider is in the plan's network (default true). */
  inNetwork: `${COVERAGE_FHIR_BASE}/StructureDefinition/in-network`,
} as const;

export const CS = {
  /** Our error_code values (docs/fhir.md#errors). */
  errorCode: `${COVERAGE_FHIR_BASE}/CodeSystem/error-code`,
  /** Our alert codes. */
  alertCode: `${COVERAGE_FHIR_BASE}/CodeSystem/alert-code`,
  /** Our plan_type and insurance_type values. */
  planType: `${COVERAGE_FHIR_BASE}/CodeSystem/plan-type`,
  insuranceType: `${COVERAGE_FHIR_BASE}/CodeSystem/insurance-type`,
  /** Benefit types HL7's benefit-type code system has no code for (the out-of-pocket maximum). */
  benefitType: `${COVERAGE_FHIR_BASE}/CodeSystem/benefit-type`,
  /** The payer's AAA03 reject reason codes and the clearinghouse's error codes, as the payer sent them. */
  payerError: `${COVERAGE_FHIR_BASE}/CodeSystem/payer-error`,
  /** Our payer IDs (GET /v1/payers), on the insurer Organization. */
  payerId: `${COVERAGE_FHIR_BASE}/payer-id`,
  hl7BenefitCategory: 'http://terminology.hl7.org/CodeSystem/ex-benefitcategory',
  hl7BenefitNetwork: 'http://terminology.hl7.org/CodeSystem/benefit-network',
  hl7BenefitUnit: 'http://terminology.hl7.org/CodeSystem/benefit-unit',
  hl7BenefitTerm: 'http://terminology.hl7.org/CodeSystem/benefit-term',
  hl7BenefitType: 'http://terminology.hl7.org/CodeSystem/benefit-type',
  hl7IdentifierType: 'http://terminology.hl7.org/CodeSystem/v2-0203',
  npi: 'http://hl7.org/fhir/sid/us-npi',
  cpt: 'http://www.ama-assn.org/go/cpt',
  placeOfService: 'https://www.cms.gov/Medicare/Coding/place-of-service-codes/Place_of_Service_Code_Set',
} as const;

/** The X12 service type code (EB03) our benefits describe: mental health, the estimate's first choice (docs/estimates.md). */
export const MENTAL_HEALTH_CATEGORY = { system: CS.hl7BenefitCategory, code: 'MH', display: 'Mental Health' } as const;

export const FHIR_JSON = 'application/fhir+json';

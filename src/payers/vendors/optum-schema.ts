/**
 * Optum's Medical Network Eligibility v3 and Security and Authorization v2 messages as we hold them
 * to the vendor's word: field names, types, lengths, patterns and code lists are the facts of Optum's
 * published OpenAPI documents ("Medical Network Eligibility v3", version v3, and "Security and
 * Authorization v2", 2.0.0; mirrored in github.com/api-evangelist/optum, openapi/_original/
 * optum-medical-network-eligibility-v3.json and optum-security-and-authorization-v2.json), written
 * here in our own TypeBox. Those documents state no license, so nothing else of them is copied.
 *
 * Every object is closed (no property the vendor does not list), so a message of ours or of the
 * simulator that drifts from Optum's shape fails validation; dateOfBirth (YYYYMMDD) and controlNumber
 * (exactly 9 digits) carry as patterns what the documents say in words. Used by the tests and the
 * Optum simulator, which answer and are checked in Optum's own shape.
 */
import { Type, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { Address, closed, oneOf } from './optum-schema-common.ts';
import {
  DEPENDENT_RELATIONSHIPS,
  DIAGNOSIS_TYPE_CODES,
  GENDERS,
  MEMBER_PROVIDER_CODES,
  PLACE_OF_SERVICE_CODES,
  PRODUCT_ID_QUALIFIERS,
  PROVIDER_CODES,
  PROVIDER_ID_QUALIFIERS,
  PROVIDER_TYPES,
  REFERRAL_QUALIFIERS,
  SERVICE_TYPE_CODES,
} from './optum-schema-codes.ts';

export { OptumBenefitsInformation, OptumEligibilityResponse, OptumError } from './optum-schema-response.ts';

const AdditionalIdentification = closed({
  planNumber: Type.Optional(Type.String({ maxLength: 50 })),
  policyNumber: Type.Optional(Type.String({ maxLength: 50 })),
  memberIdentificationNumber: Type.Optional(Type.String({ maxLength: 50 })),
  contractNumber: Type.Optional(Type.String({ maxLength: 50 })),
  medicalRecordIdentificationNumber: Type.Optional(Type.String({ maxLength: 50 })),
  patientAccountNumber: Type.Optional(Type.String({ maxLength: 50 })),
  healthInsuranceClaimNumber: Type.Optional(Type.String({ maxLength: 50 })),
  identificationCardSerialNumber: Type.Optional(Type.String({ maxLength: 50 })),
  insurancePolicyNumber: Type.Optional(Type.String({ maxLength: 50 })),
  planNetworkIdentificationNumber: Type.Optional(Type.String({ maxLength: 50 })),
  agencyClaimNumber: Type.Optional(Type.String({ maxLength: 50 })),
});
const HealthCareInformation = closed({
  diagnosisTypeCode: Type.Optional(oneOf(DIAGNOSIS_TYPE_CODES)),
  diagnosisCode: Type.Optional(Type.String({ maxLength: 30, pattern: '^[A-Za-z0-9]+$' })),
});
const InformationReceiverName = closed({
  stateLicenceNumber: Type.Optional(Type.String({ maxLength: 50 })),
  medicareProviderNumber: Type.Optional(Type.String({ maxLength: 50 })),
  medicaidProviderNumber: Type.Optional(Type.String({ maxLength: 50 })),
  facilityIdNumber: Type.Optional(Type.String({ maxLength: 50 })),
  contactNumber: Type.Optional(Type.String({ maxLength: 50 })),
  devicePinNumber: Type.Optional(Type.String({ maxLength: 50 })),
  submitterIdNumber: Type.Optional(Type.String({ maxLength: 50 })),
  nationalProviderIdentifier: Type.Optional(Type.String({ maxLength: 50 })),
  providerPlanNetworkIdNumber: Type.Optional(Type.String({ maxLength: 50 })),
  facilityNetworkIdNumber: Type.Optional(Type.String({ maxLength: 50 })),
  priorIdentifierNumber: Type.Optional(Type.String({ maxLength: 50 })),
  socialSecurityNumber: Type.Optional(Type.String({ maxLength: 50 })),
  federalTaxpayerIdentificationNumber: Type.Optional(Type.String({ maxLength: 50 })),
  informationReceiverAdditionalIdentifierState: Type.Optional(Type.String({ maxLength: 50 })),
  address: Type.Optional(Address),
});
const MedicalProcedure = closed({
  productOrServiceIDQualifier: Type.Optional(oneOf(PRODUCT_ID_QUALIFIERS)),
  procedureCode: Type.Optional(Type.String({ maxLength: 48 })),
  procedureModifiers: Type.Optional(Type.Array(Type.String(), { maxItems: 4 })),
  diagnosisCodePointer: Type.Optional(Type.Array(Type.String(), { maxItems: 4 })),
});
const Encounter = closed({
  beginningDateOfService: Type.Optional(Type.String()),
  endDateOfService: Type.Optional(Type.String()),
  dateOfService: Type.Optional(Type.String()),
  serviceTypeCodes: Type.Optional(Type.Array(oneOf(SERVICE_TYPE_CODES), { maxItems: 99 })),
  priorAuthorizationOrReferralNumber: Type.Optional(Type.String()),
  referenceIdentificationQualifier: Type.Optional(oneOf(REFERRAL_QUALIFIERS)),
  industryCode: Type.Optional(oneOf(PLACE_OF_SERVICE_CODES)),
  productOrServiceIDQualifier: Type.Optional(oneOf(PRODUCT_ID_QUALIFIERS)),
  procedureCode: Type.Optional(Type.String({ maxLength: 48 })),
  procedureModifiers: Type.Optional(Type.Array(Type.String(), { maxItems: 4 })),
  diagnosisCodePointer: Type.Optional(Type.Array(Type.String(), { maxItems: 4 })),
  medicalProcedures: Type.Optional(Type.Array(MedicalProcedure, { maxItems: 98 })),
});
const Provider = closed({
  organizationName: Type.Optional(Type.String({ maxLength: 60 })),
  firstName: Type.Optional(Type.String({ maxLength: 35 })),
  lastName: Type.Optional(Type.String({ maxLength: 60 })),
  npi: Type.Optional(Type.String({ maxLength: 80 })),
  serviceProviderNumber: Type.Optional(Type.String({ maxLength: 80 })),
  payorId: Type.Optional(Type.String({ maxLength: 80 })),
  taxId: Type.Optional(Type.String({ maxLength: 80 })),
  ssn: Type.Optional(Type.String({ maxLength: 80 })),
  pharmacyProcessorNumber: Type.Optional(Type.String({ maxLength: 80 })),
  servicesPlanID: Type.Optional(Type.String({ maxLength: 80 })),
  employersId: Type.Optional(Type.String({ maxLength: 80 })),
  providerCode: Type.Optional(oneOf(PROVIDER_CODES)),
  referenceIdentification: Type.Optional(Type.String()),
  providerType: Type.Optional(oneOf(PROVIDER_TYPES)),
});
const RequestSubscriber = closed({
  birthSequenceNumber: Type.Optional(Type.String({ maxLength: 9, pattern: '^[0-9]+$' })),
  caseNumber: Type.Optional(Type.String({ maxLength: 50, pattern: '^[A-Za-z0-9]+$' })),
  medicaidRecipientIdentificationNumber: Type.Optional(Type.String({ maxLength: 80, pattern: '^[A-Za-z0-9]+$' })),
  spendDownAmount: Type.Optional(Type.String({ maxLength: 18 })),
  spendDownTotalBilledAmount: Type.Optional(Type.String({ maxLength: 18 })),
  coverageLevelCode: Type.Optional(Type.String({ maxLength: 3 })),
  memberId: Type.Optional(Type.String({ maxLength: 80, pattern: '^[A-Za-z0-9-]+$' })),
  firstName: Type.Optional(Type.String({ maxLength: 35 })),
  middleName: Type.Optional(Type.String({ maxLength: 25 })),
  lastName: Type.Optional(Type.String({ maxLength: 60 })),
  suffix: Type.Optional(Type.String({ maxLength: 10 })),
  gender: Type.Optional(oneOf(GENDERS)),
  dateOfBirth: Type.Optional(Type.String({ pattern: '^[0-9]{8}$' })),
  ssn: Type.Optional(Type.String({ maxLength: 50 })),
  groupNumber: Type.Optional(Type.String({ maxLength: 50 })),
  idCard: Type.Optional(Type.String({ maxLength: 50 })),
  providerCode: Type.Optional(oneOf(MEMBER_PROVIDER_CODES)),
  referenceIdentificationQualifier: Type.Optional(oneOf(PROVIDER_ID_QUALIFIERS)),
  providerIdentifier: Type.Optional(Type.String({ maxLength: 50, pattern: '^[A-Za-z0-9]+$' })),
  beginningCardIssueDate: Type.Optional(Type.String()),
  endCardIssueDate: Type.Optional(Type.String()),
  idCardIssueDate: Type.Optional(Type.String()),
  planIssueDate: Type.Optional(Type.String()),
  beginningPlanIssueDate: Type.Optional(Type.String()),
  endPlanIssueDate: Type.Optional(Type.String()),
  healthCareCodeInformation: Type.Optional(Type.Array(HealthCareInformation, { maxItems: 8 })),
  address: Type.Optional(Address),
  additionalIdentification: Type.Optional(AdditionalIdentification),
});
const RequestDependent = closed({
  birthSequenceNumber: Type.Optional(Type.String({ maxLength: 9, pattern: '^[0-9]+$' })),
  individualRelationshipCode: Type.Optional(oneOf(DEPENDENT_RELATIONSHIPS)),
  issueNumber: Type.Optional(Type.String({ maxLength: 50 })),
  eligibilityCategory: Type.Optional(Type.String({ maxLength: 50 })),
  memberId: Type.Optional(Type.String({ minLength: 2, maxLength: 80, pattern: '^[A-Za-z0-9-]+$' })),
  firstName: Type.Optional(Type.String({ maxLength: 35 })),
  middleName: Type.Optional(Type.String({ maxLength: 25 })),
  lastName: Type.Optional(Type.String({ maxLength: 60 })),
  suffix: Type.Optional(Type.String({ maxLength: 10 })),
  gender: Type.Optional(oneOf(GENDERS)),
  dateOfBirth: Type.Optional(Type.String({ pattern: '^[0-9]{8}$' })),
  ssn: Type.Optional(Type.String({ maxLength: 50 })),
  groupNumber: Type.Optional(Type.String({ maxLength: 50 })),
  idCard: Type.Optional(Type.String({ maxLength: 50 })),
  providerCode: Type.Optional(oneOf(MEMBER_PROVIDER_CODES)),
  referenceIdentificationQualifier: Type.Optional(oneOf(PROVIDER_ID_QUALIFIERS)),
  providerIdentifier: Type.Optional(Type.String({ maxLength: 50, pattern: '^[A-Za-z0-9]+$' })),
  beginningCardIssueDate: Type.Optional(Type.String()),
  endCardIssueDate: Type.Optional(Type.String()),
  idCardIssueDate: Type.Optional(Type.String()),
  planIssueDate: Type.Optional(Type.String()),
  beginningPlanIssueDate: Type.Optional(Type.String()),
  endPlanIssueDate: Type.Optional(Type.String()),
  healthCareCodeInformation: Type.Optional(Type.Array(HealthCareInformation, { maxItems: 8 })),
  address: Type.Optional(Address),
  additionalIdentification: Type.Optional(AdditionalIdentification),
});
const MedicalEligibility = closed({
  submitterTransactionIdentifier: Type.Optional(Type.String()),
  controlNumber: Type.String({ pattern: '^[0-9]{9}$' }),
  tradingPartnerServiceId: Type.Optional(Type.String({ maxLength: 80 })),
  tradingPartnerName: Type.Optional(Type.String({ maxLength: 80 })),
  provider: Type.Optional(Provider),
  portalUsername: Type.Optional(Type.String({ maxLength: 50 })),
  portalPassword: Type.Optional(Type.String({ maxLength: 50 })),
  informationReceiverName: Type.Optional(InformationReceiverName),
  subscriber: RequestSubscriber,
  dependents: Type.Optional(Type.Array(RequestDependent, { minItems: 1 })),
  encounter: Type.Optional(Encounter),
});
/** Security v2's token request: a JSON body; client_credentials is the only grant it supports. */
export const OptumAuthRequest = closed({ client_id: Type.String(), client_secret: Type.String(), grant_type: Type.Literal('client_credentials') });
export const OptumAuthResponse = closed({ access_token: Type.String(), expires_in: Type.Integer(), token_type: Type.String() });
export const OptumAuthFailure = closed({ error: Type.Optional(Type.String()), error_description: Type.Optional(Type.String()) });

export const OptumEligibilityRequest = MedicalEligibility;
export const OptumRawX12Request = closed({ x12: Type.Optional(Type.String()) });

/** A JSON Pointer as Optum's error `field` writes the path: subscriber.dateOfBirth, dependents[0].memberId. */
const dotted = (pointer: string) =>
  pointer
    .replace(/^\//, '')
    .replace(/\/(\d+)(?=\/|$)/g, '[$1]')
    .replace(/\//g, '.');

/** Where a value breaks a schema: the field (dotted, as Optum names it) and what is wrong, none when it conforms. */
export function schemaFieldErrors(schema: TSchema, value: unknown): { field: string; message: string }[] {
  if (Value.Check(schema, value)) return [];
  return [...Value.Errors(schema, value)].flatMap((e) => {
    const missing = (e.params as { requiredProperties?: string[] }).requiredProperties;
    const at = dotted(e.instancePath);
    if (missing) return missing.map((m) => ({ field: at ? `${at}.${m}` : m, message: 'is required' }));
    return [{ field: at || 'body', message: e.message }];
  });
}

/** The same, one "field: message" line each, for test assertions. */
export const schemaProblems = (schema: TSchema, value: unknown): string[] => schemaFieldErrors(schema, value).map((e) => `${e.field}: ${e.message}`);

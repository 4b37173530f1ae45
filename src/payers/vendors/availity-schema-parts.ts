/**
 * The building blocks of Availity's Coverages 1.0.0 schema (availity-schema.ts says where it comes
 * from): dates, addresses, contacts, payers and the per-network benefit item.
 */
import { Type, type TSchema } from 'typebox';

/**
 * Every Availity date is declared `date-time`; answers use the form 1988-03-14T00:00:00.000+0000.
 * The date alone (RFC 3339 full-date) is accepted too: it is what we send, since a date of birth
 * with a time and an offset can move a day in a time-zone conversion.
 */
export const AVAILITY_DATE = '^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,9})?)?(Z|[+-][0-9]{2}:?[0-9]{2})?)?$';
const DateTime = Type.String({ pattern: AVAILITY_DATE });

type Fields = Record<string, TSchema>;
export const optional = (names: readonly string[], schema: () => TSchema): Fields => Object.fromEntries(names.map((n) => [n, Type.Optional(schema())]));
export const strings = (names: readonly string[]) => optional(names, () => Type.String());
export const dates = (names: readonly string[]) => optional(names, () => DateTime);
export const flags = (names: readonly string[]) => optional(names, () => Type.Boolean());
export const closed = (fields: Fields, id: string) => Type.Object(fields, { additionalProperties: false, $id: `Availity${id}` });
export const list = (item: TSchema) => Type.Optional(Type.Array(item));

/** Date fields shared by the contact, payer and network-benefit objects. */
const EVENT_DATES = [
  'addedDate',
  'admissionDate',
  'benefitBeginDate',
  'benefitEndDate',
  'completionDate',
  'coordinationOfBenefitsBeginDate',
  'coordinationOfBenefitsDate',
  'coordinationOfBenefitsEndDate',
  'coverageEndDate',
  'coverageStartDate',
  'dischargeDate',
  'eligibilityEndDate',
  'eligibilityStartDate',
  'lastUpdateDate',
  'lastVisitDate',
  'periodEndDate',
  'periodStartDate',
  'planStartDate',
  'primaryCareProviderDate',
  'serviceDate',
  'statusDate',
] as const;

export const AvailityAddress = closed(strings(['city', 'line1', 'line2', 'state', 'stateCode', 'zipCode']), 'Address');
export const AvailityContactInformation = closed(
  strings(['ediAccessNumber', 'emailAddress', 'fax', 'name', 'phone', 'url', 'workPhone']),
  'ContactInformation',
);
export const AvailityServiceDelivery = closed(
  strings([
    'amount',
    'pattern',
    'patternCode',
    'per',
    'perCode',
    'quantity',
    'quantityQualifier',
    'quantityQualifierCode',
    'time',
    'timeCode',
    'timePeriod',
    'timePeriodCode',
    'timePeriods',
  ]),
  'HealthCareServiceDelivery',
);
export const AvailityPayerNote = closed(strings(['message', 'type', 'typeCode']), 'PayerNote');

/** A person or organization named around a plan or benefit (PCP, carve-out vendor, requesting provider...). */
export const AvailityContact = closed(
  {
    ...strings([
      'alternateListId',
      'category',
      'categoryCode',
      'contractNumber',
      'coverageListlId',
      'drugFormularyNumber',
      'ein',
      'electronicPin',
      'etin',
      'facilityId',
      'facilityNetworkId',
      'familyUnitNumber',
      'firstName',
      'groupNumber',
      'healthInsuranceClaimNumber',
      'lastName',
      'medicaidProviderNumber',
      'medicaidRecipientId',
      'medicalAssistanceCategoryId',
      'medicareProviderNumber',
      'memberId',
      'middleName',
      'naicId',
      'name',
      'npi',
      'payerAssignedProviderId',
      'payerAssignedUserId',
      'payerId',
      'pharmacyProcessorNumber',
      'pin',
      'placeOfService',
      'placeOfServiceCode',
      'planId',
      'planNetworkId',
      'planNetworkName',
      'policyNumber',
      'priorAuthorizationNumber',
      'providerPlanNetworkId',
      'referralNumber',
      'role',
      'roleCode',
      'specialty',
      'specialtyCode',
      'ssn',
      'stateLicenseNumber',
      'submitterId',
      'suhi',
      'taxId',
      'type',
      'typeCode',
    ]),
    ...dates([...EVENT_DATES, 'primaryCareProviderEndDate', 'primaryCareProviderStartDate']),
    ...flags(['authorizationRequired']),
    address: Type.Optional(AvailityAddress),
    contactInformation: list(AvailityContactInformation),
    deliveryInformation: list(AvailityServiceDelivery),
    payerNotes: list(Type.String()),
  },
  'HealthCareContact',
);

/** A payer: the answering one, or another payer of the member (primary, secondary, tertiary). */
export const AvailityPayer = closed(
  {
    ...strings([
      'familyUnitNumber',
      'groupName',
      'groupNumber',
      'healthInsuranceClaimNumber',
      'insuredFirstName',
      'insuredLastName',
      'insuredMemberId',
      'insuredMiddleName',
      'medicaidRecipientIdentificationNumber',
      'memberIdentificationNumber',
      'name',
      'payerId',
      'planName',
      'planNetworkId',
      'planNetworkName',
      'planNumber',
      'policyNumber',
      'responseName',
      'responsePayerId',
      'serviceTypeCode',
      'thirdPartyAdministrator',
      'type',
      'typeCode',
    ]),
    ...dates(EVENT_DATES),
    ...flags(['primary', 'secondary', 'tertiary']),
    address: Type.Optional(AvailityAddress),
    insuredAddress: Type.Optional(AvailityAddress),
    contactInformation: list(AvailityContactInformation),
    insuredContactInformation: list(AvailityContactInformation),
    payerNotes: list(Type.String()),
  },
  'Payer',
);

/** One figure of a benefit for one network: `amount` (a copay, a coinsurance), `total` and `remaining` (a deductible, an out-of-pocket maximum). */
export const AvailityNetworkBenefit = closed(
  {
    ...strings([
      'amount',
      'amountTimePeriod',
      'amountTimePeriodCode',
      'description',
      'familyUnitNumber',
      'groupName',
      'groupNumber',
      'healthInsuranceClaimNumber',
      'insurancePolicyNumber',
      'insuranceType',
      'insuranceTypeCode',
      'level',
      'levelCode',
      'medicaidRecipientIdentificationNumber',
      'memberIdentificationNumber',
      'placeOfService',
      'placeOfServiceCode',
      'planName',
      'planNetworkId',
      'planNetworkName',
      'planNumber',
      'policyNumber',
      'priorAuthorizationNumber',
      'quantity',
      'quantityQualifier',
      'quantityQualifierCode',
      'referralNumber',
      'remaining',
      'remainingTimePeriod',
      'remainingTimePeriodCode',
      'status',
      'statusCode',
      'total',
      'totalTimePeriod',
      'totalTimePeriodCode',
      'units',
    ]),
    ...dates(EVENT_DATES),
    ...flags(['authorizationRequired', 'authorizationRequiredUnknown']),
    contacts: list(AvailityContactInformation),
    deliveryInformation: list(AvailityServiceDelivery),
    payerNotes: list(Type.String()),
  },
  'NetworkBenefit',
);

/**
 * Stedi's real-time eligibility API as Stedi publishes it (Stedi Healthcare OpenAPI, operations
 * EligibilityCheck and EligibilityRawX12Check, version 2024-04-01; a public mirror is GitHub
 * api-evangelist/stedi, openapi/_original/stedi-healthcare-openapi.yml, which states no license):
 * its facts (field names, enums, shapes) in our own words, for the tests that hold the connector's
 * requests and the simulator's answers to it. Objects we describe field by field refuse fields
 * Stedi does not list; codes a payer may send out of list ("non-compliant values", Stedi says) are
 * plain strings here, and the reader (stedi-read.ts) never relies on their shape.
 */
import { Type, type TProperties, type TSchema } from 'typebox';
import {
  COMMUNICATION_MODE_CODES,
  ENTITY_TYPE_CODES,
  FOLLOWUP_ACTION_CODES,
  PAYER_ENTITY_CODES,
  PROVIDER_ENTITY_CODES,
  RELATED_ENTITY_CODES,
} from './stedi-codes.ts';

const D8 = '^\\d{4}(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])$';
const D8_OR_RANGE = '^\\d{4}(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])(-\\d{4}(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01]))?$';

const S = () => Type.String();
const Date8 = () => Type.String({ pattern: D8 });
const Npi = () => Type.String({ pattern: '^\\d{10}$' });
const oneOf = (names: readonly string[]) => Type.Union(names.map((n) => Type.Literal(n)));
const strict = (props: TProperties, required: string[] = []) =>
  Type.Object(Object.fromEntries(Object.entries(props).map(([k, v]) => [k, required.includes(k) ? v : Type.Optional(v)])), { additionalProperties: false });
/** Many optional strings, named once. */
const strings = (names: string): TProperties => Object.fromEntries(names.split(/\s+/).map((n) => [n, S()]));
const sized = (max: number) => Type.String({ maxLength: max });

// ---- request ----------------------------------------------------------------------------------

const RequestAddress = strict({
  address1: sized(55),
  address2: sized(55),
  city: sized(30),
  countryCode: sized(2),
  countrySubDivisionCode: sized(3),
  postalCode: sized(9),
  state: S(),
});

export const StediProvider = strict({
  ...strings(
    'contactNumber contractNumber devicePinNumber facilityIdNumber facilityNetworkIdNumber informationReceiverAdditionalIdentifierState medicaidProviderNumber medicareProviderNumber priorIdentifierNumber providerPlanNetworkIdNumber stateLicenceNumber submitterIdNumber employersId payorId pharmacyProcessorNumber serviceProviderNumber servicesPlanID referenceIdentification',
  ),
  address: RequestAddress,
  firstName: sized(35),
  lastName: sized(60),
  organizationName: sized(60),
  npi: Npi(),
  providerCode: oneOf(['AD', 'AT', 'BI', 'CO', 'CV', 'H', 'HH', 'LA', 'OT', 'P1', 'P2', 'PC', 'PE', 'R', 'RF', 'SB', 'SK', 'SU']),
  providerType: oneOf(['payer', 'third-party administrator', 'employer', 'hospital', 'facility', 'gateway provider', 'plan sponsor', 'provider']),
  ssn: Type.String({ pattern: '^\\d{9}$' }),
  taxId: Type.String({ pattern: '^\\d{9}$' }),
});

const personFields = {
  ...strings('groupNumber idCard providerIdentifier referenceIdentificationQualifier providerCode'),
  additionalIdentification: Type.Record(Type.String(), Type.String()),
  address: RequestAddress,
  beginningCardIssueDate: Date8(),
  beginningPlanIssueDate: Date8(),
  birthSequenceNumber: Type.String({ pattern: '^[0-9]+$' }),
  dateOfBirth: Date8(),
  endCardIssueDate: Date8(),
  endPlanIssueDate: Date8(),
  firstName: sized(35),
  gender: oneOf(['M', 'F']),
  healthCareCodeInformation: Type.Array(
    strict({ diagnosisCode: S(), diagnosisTypeCode: oneOf(['BK', 'ABK', 'BF', 'ABF']) }, ['diagnosisCode', 'diagnosisTypeCode']),
  ),
  idCardIssueDate: Date8(),
  lastName: sized(60),
  memberId: Type.String({ pattern: '^[A-Za-z0-9- ]+$', maxLength: 80 }),
  middleName: sized(25),
  planIssueDate: Date8(),
  ssn: Type.String({ pattern: '^\\d{9}$' }),
  suffix: sized(10),
};

export const StediRequestSubscriber = strict({
  ...personFields,
  ...strings('caseNumber coverageLevelCode medicaidRecipientIdentificationNumber spendDownAmount spendDownTotalBilledAmount'),
});
export const StediRequestDependent = strict({
  ...personFields,
  ...strings('eligibilityCategory issueNumber'),
  individualRelationshipCode: oneOf(['01', '19', '34']),
});

/** EQ01: Stedi lists the X12 service type codes (the standard's list, not ours to narrow). */
const ServiceTypeCode = Type.String({ pattern: '^[0-9A-Z]{1,2}$' });

export const StediEncounter = strict({
  ...strings('priorAuthorizationOrReferralNumber productOrServiceIDQualifier referenceIdentificationQualifier industryCode'),
  beginningDateOfService: Date8(),
  dateOfService: Date8(),
  endDateOfService: Date8(),
  diagnosisCodePointer: Type.Array(S()),
  medicalProcedures: Type.Array(Type.Object({ procedureCode: S(), productOrServiceIDQualifier: S() })),
  procedureCode: sized(48),
  procedureModifiers: Type.Array(S()),
  serviceTypeCodes: Type.Array(ServiceTypeCode, { minItems: 1 }),
});

/** POST /change/medicalnetwork/eligibility/v3 (EligibilityCheckRequestContent). */
export const StediEligibilityRequest = strict(
  {
    controlNumber: Type.String({ pattern: '^\\d{9}$' }),
    dependents: Type.Array(StediRequestDependent),
    eligibilitySearchId: S(),
    encounter: StediEncounter,
    externalPatientId: sized(36),
    informationReceiverName: Type.Object({}),
    portalPassword: sized(50),
    portalUsername: sized(50),
    provider: StediProvider,
    submitterTransactionIdentifier: S(),
    subscriber: StediRequestSubscriber,
    tradingPartnerName: sized(60),
    tradingPartnerServiceId: sized(80),
  },
  ['provider', 'subscriber', 'tradingPartnerServiceId'],
);

/** POST /change/medicalnetwork/eligibility/v3/raw-x12 (EligibilityRawX12CheckRequestContent). */
export const StediRawX12Request = strict({ x12: Type.String({ minLength: 1 }), eligibilitySearchId: S(), externalPatientId: sized(36) }, ['x12']);

// ---- answer -----------------------------------------------------------------------------------

const names = (table: Readonly<Record<string, string>>) => oneOf(Object.keys(table));
const EntityType = names(ENTITY_TYPE_CODES);
const Address = strict({ ...strings('address1 address2 city countryCode countrySubDivisionCode postalCode state') });
const ContactInformation = strict({
  name: S(),
  contacts: Type.Array(strict({ communicationMode: names(COMMUNICATION_MODE_CODES), communicationNumber: S() })),
});

const AaaError = (followups: TSchema) => strict({ ...strings('code description field location possibleResolutions'), followupAction: followups });
export const StediFollowupAction = names(FOLLOWUP_ACTION_CODES);
const MemberFollowupAction = oneOf(Object.keys(FOLLOWUP_ACTION_CODES).filter((n) => n !== 'Please Resubmit Original Transaction'));

const DATE_KEYS =
  'added admission benefit benefitBegin benefitEnd certification cobraBegin cobraEnd completion coordinationOfBenefits dateOfDeath dateOfLastUpdate discharge effectiveDateOfChange eligibility eligibilityBegin eligibilityEnd enrollment issue latestVisitOrConsultation periodEnd periodStart plan planBegin planEnd policyEffective policyExpiration premiumPaidToDateBegin premiumPaidToDateEnd primaryCareProvider service status';
const dateFields = (keys: string) => Object.fromEntries(keys.split(/\s+/).map((k) => [k, Type.String({ pattern: D8_OR_RANGE })]));
/** Top-level `planDateInformation`: the plan's dates (2100C/D DTP), D8 or a D8-D8 range. */
export const StediPlanDates = strict(dateFields(DATE_KEYS));
const DtpDate = strict({ date: S(), startDate: S(), endDate: S() });
const BenefitDates = strict({
  ...dateFields(DATE_KEYS.replace('premiumPaidToDateBegin', 'premiumPaidtoDateBegin')),
  admissions: Type.Array(DtpDate),
  discharges: Type.Array(DtpDate),
});

export const StediRelatedEntity = strict({
  ...strings('entityFirstname entityMiddlename entityName entitySuffix entityIdentification entityIdentificationValue entityRelationship'),
  address: Address,
  contactInformation: ContactInformation,
  entityIdentifier: names(RELATED_ENTITY_CODES),
  entityType: EntityType,
  providerInformation: strict({ providerCode: S(), referenceIdentification: S() }),
});

export const StediBenefit = strict({
  ...strings(
    'authOrCertIndicator benefitAmount benefitPercent benefitQuantity code coverageLevel coverageLevelCode headerLoopIdentifierCode inPlanNetworkIndicator inPlanNetworkIndicatorCode insuranceType insuranceTypeCode name planCoverage quantityQualifier quantityQualifierCode timeQualifier timeQualifierCode trailerLoopIdentifierCode',
  ),
  additionalInformation: Type.Array(strict({ description: S() })),
  benefitsAdditionalInformation: Type.Record(Type.String(), Type.String()),
  benefitsDateInformation: BenefitDates,
  benefitsRelatedEntities: Type.Array(StediRelatedEntity),
  benefitsRelatedEntity: StediRelatedEntity,
  benefitsServiceDelivery: Type.Array(
    strict({
      ...strings(
        'deliveryOrCalendarPatternCode deliveryOrCalendarPatternQualifier deliveryOrCalendarPatternQualifierCode deliveryPatternTimeCode deliveryPatternTimeQualifier deliveryPatternTimeQualifierCode numOfPeriods quantity quantityQualifier quantityQualifierCode sampleSelectionModulus timePeriodQualifier timePeriodQualifierCode unitForMeasurementCode unitForMeasurementQualifier unitForMeasurementQualifierCode',
      ),
    }),
  ),
  compositeMedicalProcedureIdentifier: strict({
    ...strings('procedureCode productOrServiceID productOrServiceIDQualifier productOrServiceIDQualifierCode'),
    diagnosisCodePointer: Type.Array(S()),
    procedureModifiers: Type.Array(S()),
  }),
  eligibilityAdditionalInformation: Type.Record(Type.String(), Type.String()),
  eligibilityAdditionalInformationList: Type.Array(Type.Record(Type.String(), Type.String())),
  serviceTypeCodes: Type.Array(S()),
  serviceTypes: Type.Array(S()),
});

const ResponseProvider = strict({
  ...strings(
    'employersId middleName payorIdentification pharmacyProcessorNumber providerCode providerFirstName providerName providerOrgName referenceIdentification serviceProviderNumber servicesPlanID suffix federalTaxpayersIdNumber ssn',
  ),
  aaaErrors: Type.Array(AaaError(MemberFollowupAction)),
  address: Address,
  entityIdentifier: names(PROVIDER_ENTITY_CODES),
  entityType: EntityType,
  npi: Npi(),
});

const memberAnswerFields = {
  ...strings(
    'birthSequenceNumber dateTimePeriod dateTimePeriodFormatQualifier description employmentStatusCode endDateTimePeriod firstName gender governmentServiceAffiliationCode groupDescription groupNumber informationStatusCode lastName maintenanceReasonCode maintenanceTypeCode memberId middleName militaryServiceRankCode planDescription planNetworkDescription planNetworkIdNumber planNumber ssn startDateTimePeriod suffix uniqueHealthIdentifier',
  ),
  aaaErrors: Type.Array(AaaError(MemberFollowupAction)),
  address: Address,
  dateOfBirth: Date8(),
  entityType: EntityType,
  healthCareDiagnosisCodes: Type.Array(Type.Record(Type.String(), Type.String())),
  responseProvider: ResponseProvider,
};

const ResponseSubscriber = strict({
  ...memberAnswerFields,
  entityIdentifier: Type.Literal('Insured or Subscriber'),
  insuredIndicator: Type.Literal('Y'),
  relationToSubscriber: Type.Literal('Self'),
  relationToSubscriberCode: Type.Literal('18'),
});

const ResponseDependent = strict({
  ...memberAnswerFields,
  entityIdentifier: Type.Literal('Dependent'),
  insuredIndicator: Type.Literal('N'),
  relationToSubscriber: S(),
  relationToSubscriberCode: S(),
});

const Payer = strict({
  ...strings(
    'centersForMedicareAndMedicaidPlanId employersId etin federalTaxpayersIdNumber firstName lastName middleName naic name npi payorIdentification suffix',
  ),
  aaaErrors: Type.Array(AaaError(StediFollowupAction)),
  contactInformation: ContactInformation,
  entityIdentifier: names(PAYER_ENTITY_CODES),
  entityType: EntityType,
});

/** The answer of both endpoints (EligibilityCheckResponseContent; the raw-X12 one is the same shape). */
export const StediEligibilityAnswer = strict({
  ...strings(
    'controlNumber eligibilitySearchId id implementationTransactionSetSyntaxError reassociationKey status tradingPartnerServiceId transactionSetAcknowledgement x12',
  ),
  benefitsInformation: Type.Array(StediBenefit),
  dependents: Type.Array(ResponseDependent),
  errors: Type.Array(AaaError(StediFollowupAction)),
  meta: strict({ applicationMode: oneOf(['production', 'test', 'information']), ...strings('billerId outboundTraceId senderId submitterId traceId') }),
  payer: Payer,
  planDateInformation: StediPlanDates,
  planInformation: Type.Record(Type.String(), Type.String()),
  planStatus: Type.Array(strict({ planDetails: S(), serviceTypeCodes: Type.Array(S()), status: S(), statusCode: S() })),
  provider: ResponseProvider,
  subscriber: ResponseSubscriber,
  subscriberTraceNumbers: Type.Array(
    strict({ ...strings('originatingCompanyIdentifier referenceIdentification secondaryReferenceIdentification traceType traceTypeCode') }),
  ),
  warnings: Type.Array(strict({ code: S(), description: S() })),
});

/** Stedi's own refusal of a request (ValidationException); its 400 is otherwise the answer shape above with `errors[]`. */
export const StediValidationError = strict({ message: S(), code: S(), error: S(), fieldList: Type.Array(strict({ message: S(), path: S() })) }, ['message']);

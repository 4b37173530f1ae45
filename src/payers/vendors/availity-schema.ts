/**
 * Availity Coverages 1.0.0 as its published Swagger 2.0 document defines it (host api.availity.com,
 * base path /v1; harvested from developer.availity.com, mirrored in GitHub api-evangelist/availity,
 * openapi/_harvested/availity-coverages-swagger.json). The document states no license: these are its
 * facts (field names, types, shapes) in our own schema. Objects are closed: a field the document does
 * not define fails, so our simulator and writer cannot drift into names of our own. Availity marks no
 * field as required. Tests check our simulator's answers and our requests against it
 * (test/connections/availity.test.ts) and read fixtures of it (availity-reader.test.ts).
 */
import { Type } from 'typebox';
import {
  AvailityAddress,
  AvailityContact,
  AvailityNetworkBenefit,
  AvailityPayer,
  AvailityPayerNote,
  closed,
  dates,
  flags,
  list,
  optional,
  strings,
} from './availity-schema-parts.ts';

export { AVAILITY_DATE, AvailityAddress, AvailityContact, AvailityNetworkBenefit, AvailityPayer, AvailityPayerNote } from './availity-schema-parts.ts';

/** The networks a benefit's figures are given for. */
export const AVAILITY_NETWORKS = ['inNetwork', 'outOfNetwork', 'noNetwork', 'notApplicableNetwork'] as const;
export const AvailityBenefitDetail = closed(
  optional(AVAILITY_NETWORKS, () => Type.Array(AvailityNetworkBenefit)),
  'BenefitDetail',
);

/** The cost-share kinds of a benefit's `amounts`. */
export const AVAILITY_AMOUNTS = ['coInsurance', 'coPayment', 'deductibles', 'outOfPocket'] as const;
export const AvailityAmounts = closed(
  optional(AVAILITY_AMOUNTS, () => AvailityBenefitDetail),
  'Amounts',
);

/** A benefit's detail lists other than `amounts`. */
export const AVAILITY_BENEFIT_DETAILS = [
  'benefitDescriptions',
  'costContainment',
  'coverageBasis',
  'exclusions',
  'limitations',
  'nonCovered',
  'preexistingConditions',
  'reserve',
  'statusDetails',
] as const;

/** One service's benefit (`type` and `name`), with its coverage status and figures. */
export const AvailityBenefit = closed(
  {
    ...strings(['name', 'source', 'status', 'statusCode', 'type']),
    ...optional(AVAILITY_BENEFIT_DETAILS, () => AvailityBenefitDetail),
    amounts: Type.Optional(AvailityAmounts),
    additionalPayers: list(AvailityPayer),
    contacts: list(AvailityContact),
    payerNotes: list(AvailityPayerNote),
  },
  'Benefit',
);

export const AvailityPlan = closed(
  {
    ...strings([
      'agencyClaimNumber',
      'contractClassCode',
      'contractNumber',
      'groupName',
      'groupNumber',
      'healthInsuranceClaimNumber',
      'identificationCardSerialNumber',
      'identityCardNumber',
      'insuranceType',
      'insuranceTypeCode',
      'issueNumber',
      'medicaidRecipientIdentificationNumber',
      'medicalRecordNumber',
      'planName',
      'planNetworkId',
      'planNetworkName',
      'planNumber',
      'policyNumber',
      'priorIdentificationNumber',
      'status',
      'statusCode',
    ]),
    ...dates([
      'addedDate',
      'admissionDate',
      'certificationDate',
      'cobraEndDate',
      'cobraStartDate',
      'coverageEndDate',
      'coverageStartDate',
      'dischargeDate',
      'effectiveChangeDate',
      'eligibilityEndDate',
      'eligibilityStartDate',
      'issueDate',
      'lastUpdateDate',
      'periodEndDate',
      'periodStartDate',
      'planEndDate',
      'planEnrollmentDate',
      'planStartDate',
      'policyEffectiveDate',
      'policyExpirationDate',
      'premiumPaidToBeginDate',
      'premiumPaidToEndDate',
      'serviceDate',
      'statusDate',
    ]),
    ...optional(['benefitDescriptions', 'costContainment', 'coverageBasis', 'limitations', 'preexistingConditions', 'reserve'], () => AvailityBenefitDetail),
    additionalPayers: list(AvailityPayer),
    benefits: list(AvailityBenefit),
    contacts: list(AvailityContact),
    payerNotes: list(AvailityPayerNote),
    primaryCareProvider: Type.Optional(AvailityContact),
  },
  'Plan',
);

export const AvailityPatient = closed(
  {
    ...strings([
      'familyUnitNumber',
      'firstName',
      'gender',
      'genderCode',
      'lastName',
      'memberId',
      'middleName',
      'patientAccountNumber',
      'ssn',
      'subscriberRelationship',
      'subscriberRelationshipCode',
      'suffix',
    ]),
    ...dates(['birthDate', 'deathDate']),
    ...flags(['updateYourRecords']),
    address: Type.Optional(AvailityAddress),
  },
  'Patient',
);

export const AvailitySubscriber = closed(
  {
    ...strings(['caseNumber', 'firstName', 'gender', 'genderCode', 'lastName', 'medicaidId', 'memberId', 'middleName', 'ssn', 'suffix']),
    ...dates(['birthDate']),
    address: Type.Optional(AvailityAddress),
  },
  'Subscriber',
);

/** `validationMessages[]` and an error answer's `errors[]`. */
export const AvailityFieldError = closed({ ...strings(['code', 'errorMessage', 'field']), index: Type.Optional(Type.Integer()) }, 'FieldError');

const requestHeader = {
  ...strings(['controlNumber', 'customerId', 'id', 'status', 'statusCode', 'submitterStatecode']),
  ...dates(['asOfDate', 'cardIssueDate', 'createdDate', 'expirationDate', 'toDate', 'updatedDate']),
  procedureCode: list(Type.String()),
  requestedServiceType: list(closed(strings(['code', 'value']), 'RequestedServiceType')),
  validationMessages: list(AvailityFieldError),
};

/** GET /v1/coverages/{id}: the whole coverage. (`reminders` and `supplementalInformation` are portal features we do not read.) */
export const AvailityCoverage = closed(
  {
    ...requestHeader,
    patient: Type.Optional(AvailityPatient),
    subscriber: Type.Optional(AvailitySubscriber),
    payer: Type.Optional(AvailityPayer),
    plans: list(AvailityPlan),
    requestingProvider: Type.Optional(AvailityContact),
    reminders: Type.Optional(Type.Object({})),
    supplementalInformation: Type.Optional(Type.Object({})),
  },
  'Coverage',
);

/** POST /v1/coverages answers (200 or 202): a summary without benefits; the whole coverage is read by id. */
export const AvailityCoverageSummary = closed(
  {
    ...requestHeader,
    patient: Type.Optional(
      closed(
        {
          ...strings(['firstName', 'gender', 'genderCode', 'lastName', 'middleName', 'ssn', 'subscriberRelationship', 'subscriberRelationshipCode', 'suffix']),
          ...dates(['birthDate']),
          address: Type.Optional(closed(strings(['state', 'stateCode']), 'SummaryAddress')),
        },
        'SummaryPatient',
      ),
    ),
    payer: Type.Optional(closed(strings(['name', 'payerId', 'responseName', 'responsePayerId']), 'SummaryPayer')),
    plans: list(
      closed(
        {
          ...strings(['description', 'groupName', 'groupNumber', 'identityCardNumber', 'insuranceType', 'insuranceTypeCode', 'status', 'statusCode']),
          ...dates(['coverageEndDate', 'coverageStartDate', 'eligibilityEndDate', 'eligibilityStartDate']),
          coverageSummaryAdditionalPayers: list(Type.Object({})),
          primaryCareProvider: Type.Optional(closed(strings(['category', 'categoryCode', 'name']), 'SummaryPrimaryCareProvider')),
        },
        'SummaryPlan',
      ),
    ),
    requestingProvider: Type.Optional(Type.Object({})),
    subscriber: Type.Optional(Type.Object({})),
  },
  'CoverageSummary',
);

/** Every 4xx/5xx answer. */
export const AvailityErrorResponse = closed(
  {
    ...strings(['developerMessage', 'userMessage']),
    reasonCode: Type.Optional(Type.Integer()),
    statusCode: Type.Optional(Type.Integer()),
    errors: list(AvailityFieldError),
  },
  'ErrorResponse',
);

/** POST /v1/coverages form fields (application/x-www-form-urlencoded); all strings, dates in AVAILITY_DATE form. */
export const AVAILITY_FORM_DATES = ['asOfDate', 'toDate', 'cardIssueDate', 'patientBirthDate'] as const;
export const AvailityCoverageForm = closed(
  {
    ...strings([
      'payerId',
      'providerLastName',
      'providerFirstName',
      'providerType',
      'providerNpi',
      'providerTaxId',
      'payerAssignedProviderId',
      'providerSSN',
      'providerPIN',
      'medicaidProviderNumber',
      'providerOfficeId',
      'providerUserId',
      'contractNumber',
      'providerCity',
      'providerState',
      'providerZipCode',
      'providerSpecialty',
      'placeOfService',
      'submitterId',
      'serviceType',
      'procedureCode',
      'memberId',
      'patientSSN',
      'medicaidId',
      'medicalRecordIdentificationNumber',
      'patientAccountNumber',
      'identificationCardSerialNumber',
      'identityCardNumber',
      'insurancePolicyNumber',
      'planNetworkIdentificationNumber',
      'agencyClaimNumber',
      'patientLastName',
      'patientZipCode',
      'patientFirstName',
      'patientMiddleName',
      'patientSuffix',
      'patientGender',
      'patientState',
      'groupNumber',
      'groupOrPolicyNumber',
      'planNumber',
      'healthInsuranceClaimNumber',
      'subscriberRelationship',
      'caseNumber',
    ]),
    ...dates(AVAILITY_FORM_DATES),
  },
  'CoverageForm',
);

/**
 * Mapping in: a CoverageEligibilityRequest (with its Patient, Coverage, insurer Organization and
 * Practitioner contained or bundled) becomes the body of one of our checks, in our JSON names, so the
 * /v1 operations answer it unchanged. docs/fhir.md lists each field beside its FHIR element.
 */
import type { Coverage, CoverageEligibilityRequest, HumanName, Identifier, Organization, Patient, Reference } from '@medplum/fhirtypes';
import type { FieldError } from '../domain/errors.ts';
import type { DiscoverRequest, EstimateRequest, ScanRequest } from '../domain/schemas/requests.ts';
import { encounterFields, type EncounterFields } from './encounter-in.ts';
import { moneyToCents } from './money.ts';
import type { Resolver } from './references.ts';
import { CS, EXT } from './systems.ts';

/** What the caller asked (`purpose`), and the operation that answers it. */
export type FhirCheck =
  | { purpose: 'benefits'; operation: 'estimate'; body: EstimateRequest; encounter: EncounterFields }
  | { purpose: 'validation'; operation: 'estimate'; body: EstimateRequest; encounter: EncounterFields }
  | { purpose: 'discovery'; operation: 'discover'; body: DiscoverRequest }
  | { purpose: 'discovery'; operation: 'scan'; body: ScanRequest };

/** The references the answer repeats (patient, insurer, coverage), as the request wrote them. */
export interface RequestContext {
  patient: Reference<Patient>;
  insurer: Reference<Organization>;
  coverage: Reference<Coverage> | null;
  purpose: CoverageEligibilityRequest['purpose'];
  servicedDate: string | undefined;
  /** The request's contained resources: the answer contains them too, so its `#id` references resolve. */
  contained: CoverageEligibilityRequest['contained'];
}

/** A refused request still names the payer it asked (for the audit record, which keeps it only when the network knows it). */
export type Translation = { ok: true; check: FhirCheck; context: RequestContext } | { ok: false; errors: FieldError[]; payerId: string | undefined };

const value = (s: string | undefined) => (typeof s === 'string' && s.trim() !== '' ? s.trim() : undefined);

function names(name: HumanName[] | undefined): { first?: string; last?: string } {
  const n = name?.find((x) => x.use === 'official') ?? name?.[0];
  return { first: value(n?.given?.[0]), last: value(n?.family) };
}

const isMemberId = (id: Identifier) => id.type?.coding?.some((c) => c.code === 'MB' && (c.system === undefined || c.system === CS.hl7IdentifierType)) === true;

/** Our payer ID: the identifier in our system, else the first identifier with a value (an alias or a connection payer ID works too). */
function payerIdOf(org: Organization | undefined, ref: Reference | undefined): string | undefined {
  const ids = [...(org?.identifier ?? []), ...(ref?.identifier ? [ref.identifier] : [])];
  return value(ids.find((i) => i.system === CS.payerId && value(i.value))?.value) ?? value(ids.find((i) => value(i.value))?.value);
}

function inNetworkOf(request: CoverageEligibilityRequest): boolean | undefined {
  const ext = request.extension?.find((e) => e.url === EXT.inNetwork);
  return typeof ext?.valueBoolean === 'boolean' ? ext.valueBoolean : undefined;
}

function purposeOf(purposes: CoverageEligibilityRequest['purpose']): FhirCheck['purpose'] {
  if (purposes.includes('benefits') || purposes.includes('auth-requirements')) return 'benefits';
  return purposes.includes('discovery') ? 'discovery' : 'validation';
}

export function translateRequest(request: CoverageEligibilityRequest, resolver: Resolver): Translation {
  const errors: FieldError[] = [];
  const R = 'CoverageEligibilityRequest';
  const purposes = Array.isArray(request.purpose) ? request.purpose : [];
  if (purposes.length === 0) errors.push({ field: `${R}.purpose`, message: 'is required: benefits, discovery or validation' });
  const patient = resolver.resolve(request.patient, ['Patient']);
  if (!patient) errors.push({ field: `${R}.patient`, message: 'must reference a Patient contained in the request or in its Bundle' });
  const insurer = resolver.resolve(request.insurer, ['Organization']);
  const focal = request.insurance?.find((i) => i.focal) ?? request.insurance?.[0];
  const coverage = resolver.resolve(focal?.coverage, ['Coverage']);
  if (focal?.coverage && !coverage)
    errors.push({ field: `${R}.insurance.coverage`, message: 'must reference a Coverage contained in the request or in its Bundle' });
  // The answer names request.patient: a Coverage of someone else would be answered under the wrong person (docs/fhir.md).
  const beneficiary = coverage?.beneficiary?.reference;
  if (patient && beneficiary && resolver.resolve(coverage.beneficiary, ['Patient']) !== patient)
    errors.push({
      field: 'Coverage.beneficiary',
      message: `is ${beneficiary}, not the request's patient ${request.patient.reference}: the Coverage must be the patient's own`,
    });
  const payorRef = coverage?.payor?.[0];
  const payor = resolver.resolve(payorRef, ['Organization']);
  const payerId = payerIdOf(insurer, request.insurer) ?? payerIdOf(payor, payorRef);

  const providerRes = resolver.resolve(request.provider ?? request.item?.[0]?.provider, ['Practitioner', 'PractitionerRole', 'Organization']);
  const practitioner = providerRes?.resourceType === 'PractitionerRole' ? resolver.resolve(providerRes.practitioner, ['Practitioner']) : providerRes;
  const npi = value(practitioner?.identifier?.find((i) => i.system === CS.npi)?.value);
  const provider = practitioner?.resourceType === 'Practitioner' ? names(practitioner.name) : {};

  const memberId = value(coverage?.subscriberId) ?? value(coverage?.identifier?.find(isMemberId)?.value);
  const member = names(patient?.name);
  const dob = value(patient?.birthDate);
  const zip = value(patient?.address?.find((a) => value(a.postalCode))?.postalCode);

  if ((request.item?.length ?? 0) > 1) errors.push({ field: `${R}.item`, message: 'one item per request: send a Bundle of requests for several services' });
  let sessionCost: number | undefined;
  const price = request.item?.[0]?.unitPrice;
  if (price) {
    const cents = moneyToCents(price);
    if (cents.ok) sessionCost = cents.cents;
    else errors.push({ field: `${R}.item[0].unitPrice`, message: cents.message });
  }
  const encounter = encounterFields(request, resolver, errors);
  const purpose = purposeOf(purposes);

  let check: FhirCheck;
  if (purpose === 'discovery') {
    const identity = { member_first_name: member.first ?? '', member_last_name: member.last ?? '', member_dob: dob ?? '', zip: zip ?? '' };
    check = payerId ? { purpose, operation: 'discover', body: { ...identity, payer_id: payerId } } : { purpose, operation: 'scan', body: identity };
  } else {
    if (!memberId) errors.push({ field: 'Coverage.subscriberId', message: 'is required: Coverage.subscriberId, or a Coverage.identifier of type MB' });
    const body: EstimateRequest = {
      member_id: memberId ?? '',
      member_first_name: member.first ?? '',
      member_last_name: member.last ?? '',
      member_dob: dob ?? '',
      ...(payerId !== undefined ? { payer_id: payerId } : {}),
      ...(npi !== undefined ? { provider_npi: npi } : {}),
      ...(provider.first !== undefined ? { provider_first_name: provider.first } : {}),
      ...(provider.last !== undefined ? { provider_last_name: provider.last } : {}),
      ...(sessionCost !== undefined && purpose === 'benefits' ? { provider_session_cost: sessionCost } : {}),
      ...encounter,
    };
    const inNetwork = inNetworkOf(request);
    if (inNetwork !== undefined) body.in_network = inNetwork;
    check = { purpose, operation: 'estimate', body, encounter };
  }
  if (!dob && patient) errors.push({ field: 'Patient.birthDate', message: 'is required' });
  if (errors.length > 0) return { ok: false, errors, payerId };
  return {
    ok: true,
    check,
    context: {
      patient: request.patient,
      insurer: request.insurer,
      coverage: focal?.coverage ?? null,
      purpose: purposes,
      servicedDate: encounter.date_of_service,
      contained: request.contained,
    },
  };
}

/** Our request field names as the FHIR element that carries them, for the OperationOutcome of a refused request. */
export const FHIR_PATH_OF: Readonly<Record<string, string>> = {
  member_id: 'Coverage.subscriberId',
  member_first_name: 'Patient.name.given',
  member_last_name: 'Patient.name.family',
  member_dob: 'Patient.birthDate',
  payer_id: 'CoverageEligibilityRequest.insurer',
  provider_npi: 'Practitioner.identifier',
  provider_first_name: 'Practitioner.name.given',
  provider_last_name: 'Practitioner.name.family',
  provider_session_cost: 'CoverageEligibilityRequest.item.unitPrice',
  in_network: 'CoverageEligibilityRequest.extension',
  zip: 'Patient.address.postalCode',
  date_of_service: 'CoverageEligibilityRequest.servicedDate',
  procedure_code: 'CoverageEligibilityRequest.item.productOrService',
  place_of_service: 'Location.type',
};

/**
 * The OpenAPI document's words and example calls for the FHIR door (docs/fhir.md), kept beside the
 * others (openapi-document.ts, openapi-examples.ts) as openapi-monitoring.ts keeps its own.
 */
import type { ErrorCode } from '../domain/errors.ts';

export type FhirOperation = 'fhirSubmit' | 'fhirMetadata';

/** An example call of these operations (the shape of openapi-examples.ts ExampleCall). */
export interface FhirExampleCall {
  operation: FhirOperation;
  name: string;
  summary: string;
  status: number;
  error_code: ErrorCode | null;
  body?: Record<string, unknown>;
  send?: 'without_key' | 'as_text' | 'oversized' | 'past_rate_limit';
}

export const FHIR_ROUTES: Record<FhirOperation, { method: 'GET' | 'POST'; path: string }> = {
  fhirSubmit: { method: 'POST', path: '/fhir/r4/CoverageEligibilityRequest/$submit' },
  fhirMetadata: { method: 'GET', path: '/fhir/r4/metadata' },
};

export const FHIR_DESCRIPTIONS: Record<FhirOperation, string> = {
  fhirSubmit:
    'The operation `CoverageEligibilityRequest/$submit` of FHIR R4. The body is a CoverageEligibilityRequest whose Patient, Coverage, insurer Organization and Practitioner are contained (or bundled), or a Bundle of such requests (answered with a batch-response Bundle). `purpose` `benefits` is an estimate, `discovery` a discover (or a scan without an insurer), `validation` the plan status only. The answer is a CoverageEligibilityResponse: `insurance[].inforce`, `benefitPeriod`, `item[]` per benefit, plan and insurance type, the session cost share and the alerts as extensions (docs/fhir.md). Errors are OperationOutcome resources with our error_code in `issue[].details.coding`. Send `application/fhir+json` or `application/json`.',
  fhirMetadata: 'The CapabilityStatement of the FHIR door: the `$submit` operation, the formats, and the `apikey` header. Served without a key.',
};

export const FHIR_SUCCESS: Record<FhirOperation, string> = {
  fhirSubmit: 'A CoverageEligibilityResponse, or a batch-response Bundle of them (an entry that failed carries its OperationOutcome and status).',
  fhirMetadata: 'The CapabilityStatement.',
};

const NPI = '1234567893';

/** A CoverageEligibilityRequest with its resources contained: the shape docs/fhir.md shows. */
export function exampleEligibilityRequest(
  m: { member_id: string; first: string; last: string; dob: string; payer_id: string },
  purpose: string[],
  price?: number,
) {
  return {
    resourceType: 'CoverageEligibilityRequest',
    contained: [
      { resourceType: 'Patient', id: 'patient', name: [{ given: [m.first], family: m.last }], birthDate: m.dob },
      { resourceType: 'Organization', id: 'insurer', identifier: [{ system: 'https://coverage-service.org/fhir/payer-id', value: m.payer_id }] },
      {
        resourceType: 'Coverage',
        id: 'coverage',
        status: 'active',
        subscriberId: m.member_id,
        beneficiary: { reference: '#patient' },
        payor: [{ reference: '#insurer' }],
      },
      { resourceType: 'Practitioner', id: 'practitioner', identifier: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: NPI }] },
    ],
    status: 'active',
    purpose,
    patient: { reference: '#patient' },
    servicedDate: '2026-06-15',
    created: '2026-06-15',
    provider: { reference: '#practitioner' },
    insurer: { reference: '#insurer' },
    insurance: [{ focal: true, coverage: { reference: '#coverage' } }],
    ...(price === undefined
      ? {}
      : {
          item: [
            {
              category: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/ex-benefitcategory', code: 'MH' }] },
              productOrService: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '90837' }] },
              unitPrice: { value: price, currency: 'USD' },
            },
          ],
        }),
  };
}

const avery = { member_id: '10010MHNA', first: 'Avery', last: 'Walsh', dob: '1988-03-14', payer_id: 'SBX-EVERGREEN' };
const benefits = exampleEligibilityRequest(avery, ['benefits'], 150);

export const FHIR_EXAMPLE_CALLS: FhirExampleCall[] = [
  {
    operation: 'fhirSubmit',
    name: 'benefits',
    summary: 'Benefits of an active PPO and the share of a $150 session',
    status: 200,
    error_code: null,
    body: benefits,
  },
  {
    operation: 'fhirSubmit',
    name: 'bundle',
    summary: 'A Bundle: plan status of an inactive plan, and a member the payer does not know',
    status: 200,
    error_code: null,
    body: {
      resourceType: 'Bundle',
      type: 'batch',
      entry: [
        exampleEligibilityRequest({ ...avery, member_id: '7MHEXP', first: 'Pat', last: 'Doe', dob: '1990-01-01' }, ['validation']),
        exampleEligibilityRequest({ ...avery, member_id: '5MHMNF', first: 'Pat', last: 'Doe', dob: '1990-01-01' }, ['validation']),
      ].map((resource) => ({ resource, request: { method: 'POST', url: 'CoverageEligibilityRequest/$submit' } })),
    },
  },
  {
    operation: 'fhirSubmit',
    name: 'invalid_request',
    summary: 'A price with a fraction of a cent',
    status: 400,
    error_code: 'INVALID_REQUEST',
    body: exampleEligibilityRequest(avery, ['benefits'], 150.005),
  },
  {
    operation: 'fhirSubmit',
    name: 'member_not_found',
    summary: 'No such member at the payer',
    status: 404,
    error_code: 'MEMBER_NOT_FOUND',
    body: exampleEligibilityRequest({ ...avery, member_id: '5MHMNF' }, ['benefits']),
  },
  {
    operation: 'fhirSubmit',
    name: 'payer_failure',
    summary: 'The payer failed; its AAA reject reason follows',
    status: 502,
    error_code: 'PAYER_FAILURE',
    body: exampleEligibilityRequest({ ...avery, member_id: '1MHRR' }, ['benefits']),
  },
  { operation: 'fhirSubmit', name: 'unauthorized', summary: 'No apikey header', status: 401, error_code: 'UNAUTHORIZED', body: benefits, send: 'without_key' },
  {
    operation: 'fhirSubmit',
    name: 'payload_too_large',
    summary: 'A body over 64 KiB',
    status: 413,
    error_code: 'PAYLOAD_TOO_LARGE',
    body: benefits,
    send: 'oversized',
  },
  {
    operation: 'fhirSubmit',
    name: 'unsupported_media_type',
    summary: 'The body sent as text/plain',
    status: 415,
    error_code: 'UNSUPPORTED_MEDIA_TYPE',
    body: benefits,
    send: 'as_text',
  },
  {
    operation: 'fhirSubmit',
    name: 'rate_limited',
    summary: 'Past the API key’s checks per minute',
    status: 429,
    error_code: 'TOO_MANY_REQUESTS',
    body: benefits,
    send: 'past_rate_limit',
  },
  { operation: 'fhirMetadata', name: 'capability', summary: 'The CapabilityStatement', status: 200, error_code: null },
];

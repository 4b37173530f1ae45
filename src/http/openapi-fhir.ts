/**
 * The OpenAPI document's words for the FHIR door (docs/fhir.md), kept beside the others
 * (openapi-document.ts, openapi-monitoring.ts); its example calls are openapi-fhir-examples.json.
 */

export type FhirOperation = 'fhirSubmit' | 'fhirMetadata';

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

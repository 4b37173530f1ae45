/**
 * The OpenAPI document's words for the FHIR door (docs/fhir.md), kept beside the others
 * (openapi-document.ts, openapi-monitoring.ts); its example calls are openapi-fhir-examples.json.
 */

export type FhirOperation = 'fhirSubmit' | 'fhirMetadata';

export const FHIR_ROUTES: Record<FhirOperation, { method: 'GET' | 'POST'; path: string }> = {
  fhirSubmit: { method: 'POST', path: '/fhir/r4/CoverageEligibilityRequest/$submit' },
  fhirMetadata: { method: 'GET', path: '/fhir/r4/metadata' },
};

/**
 * The OpenAPI document's words for the FHIR door (docs/fhir.md), kept beside the others
 * (openapi-document.ts, openapi-monitoring.ts); its example calls are openapi-fhir-examples.json.
 */

export const FHIR_OPERATIONS = ['fhirSubmit', 'fhirMetadata'] as const;
export type FhirOperation = (typeof FHIR_OPERATIONS)[number];

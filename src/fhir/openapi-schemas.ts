/**
 * The FHIR resources as the OpenAPI document describes them: the resource type and the elements a
 * client branches on. The full definitions are HL7's (FHIR R4); docs/fhir.md maps each element.
 */
import { Type, type TSchema } from 'typebox';

const resource = (types: string[], description: string, properties: Record<string, TSchema> = {}) =>
  Type.Object({ resourceType: Type.Union(types.map((t) => Type.Literal(t))), ...properties }, { description });

export const FhirSubmitBody = resource(
  ['CoverageEligibilityRequest', 'Bundle'],
  'A FHIR R4 CoverageEligibilityRequest with its Patient, Coverage, insurer Organization and ' +
    'Practitioner contained, or a Bundle holding several requests and the resources they reference.',
);

export const FhirSubmitAnswer = resource(
  ['CoverageEligibilityResponse', 'Bundle'],
  'A FHIR R4 CoverageEligibilityResponse (outcome, insurance[].inforce, benefitPeriod, item[] ' +
    'per benefit, the session cost share extension), or a batch-response Bundle of them.',
  { outcome: Type.Optional(Type.String()), type: Type.Optional(Type.String()) },
);

export const FhirOperationOutcome = resource(
  ['OperationOutcome'],
  'A FHIR R4 OperationOutcome: our error_code in issue[].details.coding, the request_id in diagnostics.',
  {
    issue: Type.Array(Type.Object({ severity: Type.String(), code: Type.String() })),
  },
);

export const FhirCapabilityStatement = resource(['CapabilityStatement'], 'A FHIR R4 CapabilityStatement naming the $submit operation and the apikey header.', {
  fhirVersion: Type.String(),
});

export const FhirGfeBundle = resource(
  ['Bundle'],
  'A FHIR R4 Bundle (`collection`) in the shape of the Da Vinci Patient Cost Transparency GFE Bundle: the Patient, a self-pay ' +
    'Coverage, an Organization (NPI, TIN) and a Claim of the GFE professional profile (`use: predetermination`: items with CPT/HCPCS, ' +
    'quantity, unit price and net; ICD-10-CM diagnoses; the total; the notices as gfeDisclaimer extensions) per provider.',
  { type: Type.Literal('collection'), entry: Type.Array(Type.Object({ fullUrl: Type.String(), resource: Type.Object({ resourceType: Type.String() }) })) },
);

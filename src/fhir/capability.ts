/** GET /fhir/r4/metadata: what the FHIR door serves, the $submit operation, and how to authenticate. */
import type { CapabilityStatement } from '@medplum/fhirtypes';
import { FHIR_JSON } from './systems.ts';

export const SUBMIT_PATH = '/fhir/r4/CoverageEligibilityRequest/$submit';

export function capabilityStatement(options: { version: string; date: string }): CapabilityStatement {
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: options.date,
    kind: 'instance',
    software: { name: 'coverage-service', version: options.version },
    implementation: { description: 'Coverage verification: X12 270/271 eligibility and session cost estimates, asked in FHIR R4 (docs/fhir.md).' },
    fhirVersion: '4.0.1',
    format: [FHIR_JSON, 'json'],
    rest: [
      {
        mode: 'server',
        documentation: 'Send the body as application/fhir+json (or application/json).',
        security: {
          description:
            'Every request but this one carries the API key in the `apikey` header (the same keys ' +
            'as /v1). A missing, unknown or revoked key is answered 401 with an OperationOutcome.',
        },
        resource: [
          {
            type: 'CoverageEligibilityRequest',
            operation: [
              {
                name: 'submit',
                definition: 'http://hl7.org/fhir/OperationDefinition/CoverageEligibilityRequest-submit',
                documentation:
                  'POST a CoverageEligibilityRequest (its Patient, Coverage, insurer and Practitioner contained or ' +
                  'bundled), or a Bundle of them; the answer is a CoverageEligibilityResponse, or a Bundle of them.',
              },
            ],
          },
          { type: 'CoverageEligibilityResponse' },
        ],
      },
    ],
  };
}

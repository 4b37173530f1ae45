/** The OpenAPI document's FHIR examples are conformant: every request body it shows, and every answer it recorded. */
import { test } from 'node:test';
import { exampleResponses } from '../../src/http/openapi/openapi-example-responses.ts';
import { FHIR_EXAMPLE_CALLS } from '../../src/http/openapi/openapi-examples.ts';
import { exampleKey } from '../../src/http/openapi/openapi-examples.ts';
import { assertConformant } from './conformance.ts';

for (const call of FHIR_EXAMPLE_CALLS) {
  test(`${exampleKey(call)}: the request and the recorded answer are valid FHIR R4`, () => {
    if (call.body) assertConformant(call.body, 'the example request');
    assertConformant(exampleResponses()[exampleKey(call)], 'the recorded answer');
  });
}

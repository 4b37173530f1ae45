/**
 * Stedi's real-time eligibility API as Stedi publishes it (operations EligibilityCheck and
 * EligibilityRawX12Check): the schemas are data, our JSON copy of its facts (stedi-eligibility.json
 * says which document, and where it is mirrored), built into TypeBox by schemasOf (json-schema.ts),
 * for the tests that hold the connector's requests and the simulator's answers to it. Where Stedi
 * spells codes out, the enum is the names of our code table (x-names-of), so each code map is written once.
 */
import { schemasOf } from './json-schema.ts';
import STEDI from './stedi-eligibility.json' with { type: 'json' };
import { STEDI_NAME_TABLES } from './stedi-codes.ts';

const SCHEMAS = schemasOf(STEDI, STEDI_NAME_TABLES);

/** POST /change/medicalnetwork/eligibility/v3 (EligibilityCheckRequestContent). */
export const StediEligibilityRequest = SCHEMAS.EligibilityRequest;
/** POST /change/medicalnetwork/eligibility/v3/raw-x12 (EligibilityRawX12CheckRequestContent). */
export const StediRawX12Request = SCHEMAS.RawX12Request;
/** The answer of both endpoints (EligibilityCheckResponseContent; the raw-X12 one is the same shape). */
export const StediEligibilityAnswer = SCHEMAS.EligibilityAnswer;
/** Stedi's own refusal of a request (ValidationException); its 400 is otherwise the answer shape above with `errors[]`. */
export const StediValidationError = SCHEMAS.ValidationError;

/**
 * The service's one ajv setup: every error at once, no coercion or defaults, and the 'date' and
 * 'npi' formats of the domain. Fastify compiles the route schemas with it (app.ts); batch rows are
 * validated with an instance of the same (check-validator.ts).
 */
import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import { isIsoDate, isNpi } from '../domain/formats.ts';
import { isX12Name } from '../domain/names.ts';

export const AJV_OPTIONS = {
  allErrors: true,
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: false,
} as const;

/** Named formatsPlugin so fastify does not add ajv-formats again after it: our 'date' must win over ajv-formats' own. */
export function formatsPlugin(ajv: Ajv): Ajv {
  ajvFormats.default(ajv);
  ajv.addFormat('date', isIsoDate);
  ajv.addFormat('npi', isNpi);
  ajv.addFormat('person-name', isX12Name);
  return ajv;
}

export function createAjv(): Ajv {
  return formatsPlugin(new Ajv({ ...AJV_OPTIONS }));
}

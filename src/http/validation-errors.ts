/** Turns schema-validation failures into the INVALID_REQUEST field list: one entry per field. */
import type { FieldError } from '../domain/errors.ts';

interface AjvLikeError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

const FIELD_MESSAGES: Record<string, string> = {
  provider_session_cost: 'must be whole cents, a string of digits or a non-negative integer: provider_session_cost is in cents, 15000 is $150.00',
  patient_state: 'must be a US state or territory code such as NY',
  member_dob: 'must be a real calendar date in YYYY-MM-DD, such as 1988-03-14 (JSON takes no MM/DD/YYYY; a CSV upload does)',
  provider_npi: 'must be a 10-digit NPI with a valid check digit',
  zip: 'must be a 5-digit ZIP or ZIP+4, or blank',
  date_of_service: 'must be a real calendar date in YYYY-MM-DD, such as 2026-12-14 (JSON takes no MM/DD/YYYY; a CSV upload does)',
  procedure_code: 'must be a CPT or HCPCS code: five digits such as 90837, or a letter and four digits such as H0031',
  place_of_service: 'must be a two-digit CMS place-of-service code such as 11 (office), 02 or 10 (telehealth)',
};

function describe(field: string, e: AjvLikeError): string {
  if (e.keyword === 'type') return `must be a ${String(e.params.type)}`;
  if (e.keyword === 'minLength') return 'must not be blank';
  if (e.keyword === 'maxLength') return `must be at most ${String(e.params.limit)} characters`;
  if (e.keyword === 'pattern' && /name/.test(field)) return 'may contain letters, spaces, apostrophes, periods, commas and hyphens only';
  if (e.keyword === 'format' && /name/.test(field)) return 'must be written in Latin letters (payers receive names in the X12 basic character set)';
  if (e.keyword === 'pattern' && field === 'member_id') return 'may contain letters, digits and hyphens only';
  if (e.keyword === 'pattern' && field === 'payer_id') return 'may contain letters, digits, spaces, periods, underscores and hyphens only';
  return e.message ?? 'is invalid';
}

export function fieldErrors(errors: readonly AjvLikeError[]): FieldError[] {
  const out = new Map<string, string>();
  for (const e of errors) {
    const path = e.instancePath.replace(/^\//, '').split('/')[0] ?? '';
    if (e.keyword === 'required') {
      const field = String(e.params.missingProperty);
      out.set(field, 'is required');
      continue;
    }
    if (e.keyword === 'additionalProperties') {
      const field = String(e.params.additionalProperty);
      out.set(field, 'is not a field of this endpoint');
      continue;
    }
    if (path === '') {
      out.set('(body)', 'must be a JSON object');
      continue;
    }
    if (out.has(path)) continue;
    out.set(path, FIELD_MESSAGES[path] ?? describe(path, e));
  }
  return [...out].map(([field, message]) => ({ field, message }));
}

/** AAA request validation codes (X12 element 901) and how the service reports each rejection. */
import type { ErrorCode } from '../domain/errors.ts';
import { codeIn } from './code-tables/index.ts';

export const AAA_REASONS: Readonly<Record<string, string>> = {
  '04': 'authorized quantity exceeded',
  '15': 'required application data missing',
  '33': 'input errors',
  '35': 'out of network',
  '41': 'authorization/access restrictions',
  '42': 'unable to respond at current time',
  '43': 'invalid/missing provider identification',
  '44': 'invalid/missing provider name',
  '45': 'invalid/missing provider specialty',
  '46': 'invalid/missing provider phone number',
  '47': 'invalid/missing provider state',
  '48': 'invalid/missing referring provider identification number',
  '49': 'provider is not primary care physician',
  '50': 'provider ineligible for inquiries',
  '51': 'provider not on file',
  '52': 'service dates not within provider plan enrollment',
  '53': 'inquired benefit inconsistent with provider type',
  '54': 'inappropriate product/service ID qualifier',
  '55': 'inappropriate product/service ID',
  '56': 'inappropriate date',
  '57': 'invalid/missing date(s) of service',
  '58': 'invalid/missing date-of-birth',
  '60': 'date of birth follows date(s) of service',
  '61': 'date of death precedes date(s) of service',
  '62': 'date of service not within allowable inquiry period',
  '63': 'date of service in future',
  '64': 'invalid/missing patient ID',
  '65': 'invalid/missing patient name',
  '66': 'invalid/missing patient gender code',
  '67': 'patient not found',
  '68': 'duplicate patient ID number',
  '69': "inconsistent with patient's age",
  '70': "inconsistent with patient's gender",
  '71': 'patient birth date does not match that for the patient on the database',
  '72': 'invalid/missing subscriber/insured ID',
  '73': 'invalid/missing subscriber/insured name',
  '74': 'invalid/missing subscriber/insured gender code',
  '75': 'subscriber/insured not found',
  '76': 'duplicate subscriber/insured ID number',
  '77': 'subscriber found, patient not found',
  '78': 'subscriber/insured not in group/plan identified',
  '79': 'invalid participant identification',
  '80': 'no response received - transaction terminated',
  '97': 'invalid or missing provider address',
  '98': 'experimental service or procedure',
  AA: 'authorization number not found',
  AE: 'requires primary care physician authorization',
  AF: 'invalid/missing diagnosis code(s)',
  AG: 'invalid/missing procedure code(s)',
  AO: 'additional patient condition information required',
  CI: 'certification information does not match patient',
  E8: 'requires medical review',
  IA: 'invalid authorization number format',
  MA: 'missing authorization',
  T4: 'payer name or identifier missing',
};

export const AAA_FOLLOWUPS: Readonly<Record<string, string>> = {
  C: 'please correct and resubmit',
  N: 'resubmission not allowed',
  P: 'please resubmit original transaction',
  R: 'resubmission allowed',
  S: 'do not resubmit; inquiry initiated to a third party',
  W: 'please wait 30 days and resubmit',
  X: 'please wait 10 days and resubmit',
  Y: 'do not resubmit; we will hold your request and respond again shortly',
};

/**
 * How the service reports each AAA rejection, in one table (docs/estimates.md section 1.4):
 *
 * | AAA03 | error_code | HTTP | retry |
 * |---|---|---|---|
 * | 58 64 65 67 68 71 72 73 75 76 77 78 | MEMBER_NOT_FOUND | 404 | no: correct the member data |
 * | 43 44 45 46 47 48 50 51 52 97 | PROVIDER_NOT_RECOGNIZED | 400 | no: correct the provider |
 * | 41 79 T4 | PAYER_NOT_SUPPORTED | 400 | no |
 * | 04 (authorized quantity exceeded: the payer's inquiry quota) | TOO_MANY_REQUESTS | 429 + Retry-After (AAA_RETRY_AFTER_SECONDS) | yes, after the wait |
 * | 42 (unable to respond now), 80 (no response received) | PAYER_FAILURE | 502 | yes: transient; production connectors retry them with backoff first |
 * | any other code | PAYER_FAILURE | 502 | reason kept for the operator |
 */
const AAA_ERROR: Readonly<Record<string, ErrorCode>> = {
  ...Object.fromEntries(['58', '64', '65', '67', '68', '71', '72', '73', '75', '76', '77', '78'].map((c) => [c, 'MEMBER_NOT_FOUND'])),
  ...Object.fromEntries(['43', '44', '45', '46', '47', '48', '50', '51', '52', '97'].map((c) => [c, 'PROVIDER_NOT_RECOGNIZED'])),
  ...Object.fromEntries(['41', '79', 'T4'].map((c) => [c, 'PAYER_NOT_SUPPORTED'])),
  '04': 'TOO_MANY_REQUESTS',
  '42': 'PAYER_FAILURE',
  '80': 'PAYER_FAILURE',
};

/** AAA03 codes of a transient payer condition: worth asking again. */
export const RETRYABLE_AAA: ReadonlySet<string> = new Set(['04', '42', '80']);

/** Retry-After for an AAA 04 (the 271 carries no wait of its own). */
export const AAA_RETRY_AFTER_SECONDS = 60;

export function errorCodeForAaa(code: string): ErrorCode {
  return Object.hasOwn(AAA_ERROR, code) ? AAA_ERROR[code]! : 'PAYER_FAILURE';
}

/** Operator text, e.g. "AAA 75: subscriber/insured not found". */
export function aaaReason(code: string, followup: string): string {
  const what = codeIn(AAA_REASONS, code) ?? 'unlisted reject reason';
  const next = codeIn(AAA_FOLLOWUPS, followup);
  // Only a code's shape is echoed: this text reaches logs, and an element can hold anything.
  const shown = /^[0-9A-Z]{1,3}$/.test(code) ? code : code ? '(malformed code)' : '(no code)';
  return `AAA ${shown}: ${what}${next ? ` (${next})` : ''}`;
}

/**
 * The 271 corpus (test/fixtures/271/): each NAME.271 with NAME.expect.json stating the rule it
 * proves, what the normalizer must read and what the estimate must answer. The corpus test reads
 * them through normalize + estimate; the replay test sends them through a production server.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { OFFICE_PLACE_OF_SERVICE, type Encounter } from '../../src/domain/encounter.ts';

export const CORPUS = new URL('../fixtures/271/', import.meta.url);

export interface CorpusRequest {
  member_id?: string;
  member_first_name?: string;
  member_last_name?: string;
  member_dob?: string;
  provider_session_cost?: number;
  in_network?: boolean;
  /** The encounter (domain/encounter.ts); absent: an office visit on `today`. */
  date_of_service?: string;
  procedure_code?: string;
  place_of_service?: string;
}

export interface CorpusExpectation {
  /** The rule the file proves, with its source (TR3 section or payer practice). */
  rule: string;
  /** Where the 271 comes from and its license; "hand-written" for this project's files. */
  source: string;
  /** The 271 when it is not NAME.271 beside this file (a vendored public sample), relative to the corpus folder. */
  file?: string;
  /** The service's date for plan status and resets. */
  today: string;
  request: CorpusRequest;
  /** Fields of the normalized Coverage (a subset; nested objects compared key by key). */
  normalized?: Record<string, unknown>;
  /** A 271 rejection instead: error_code and reason_code. */
  rejected?: { error_code: string; reason_code: string };
  /** The estimate: HTTP status and a subset of the body. */
  estimate?: { status: number; body: Record<string, unknown>; alert_codes?: string[] };
  /** Substrings, each found in some warning of the normalizer. */
  warnings?: string[];
}

export interface CorpusCase {
  name: string;
  text: string;
  expect: CorpusExpectation;
}

export function corpus(): CorpusCase[] {
  const out: CorpusCase[] = [];
  for (const f of readdirSync(CORPUS).sort()) {
    if (!f.endsWith('.expect.json')) continue;
    const name = f.slice(0, -'.expect.json'.length);
    const expect = JSON.parse(readFileSync(new URL(f, CORPUS), 'utf8')) as CorpusExpectation;
    const text = readFileSync(new URL(expect.file ?? `${name}.271`, CORPUS), 'latin1');
    out.push({ name, text, expect });
  }
  return out;
}

/** Every key of `expected` holds in `actual`: objects key by key, arrays and primitives exactly. */
export function assertSubset(actual: unknown, expected: unknown, path: string): void {
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    assert.ok(actual !== null && typeof actual === 'object' && !Array.isArray(actual), `${path}: expected an object, got ${JSON.stringify(actual)}`);
    for (const [k, v] of Object.entries(expected)) assertSubset((actual as Record<string, unknown>)[k], v, `${path}.${k}`);
    return;
  }
  assert.deepEqual(actual, expected, `${path}: got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
}

/** The encounter a corpus case prices: the request's, else an office visit on the case's `today`. */
export function encounterOf(c: CorpusCase): Encounter {
  const r = c.expect.request;
  return {
    date_of_service: r.date_of_service ?? c.expect.today,
    procedure_code: r.procedure_code ?? null,
    place_of_service: r.place_of_service ?? OFFICE_PLACE_OF_SERVICE,
  };
}

/** The estimate request of a corpus case, with the member's identity as a front desk would type it. */
export function estimateRequest(c: CorpusCase, payerId: string): Record<string, unknown> {
  return { payer_id: payerId, provider_npi: '1234567893', ...c.expect.request };
}

/** The patient the request asks about, as production passes it to the reader (src/operations/ask-payer.ts). */
export function personOf(c: CorpusCase): { member_id: string | null; first_name: string | null; last_name: string | null; dob: string | null } {
  const r = c.expect.request;
  return { member_id: r.member_id ?? null, first_name: r.member_first_name ?? null, last_name: r.member_last_name ?? null, dob: r.member_dob ?? null };
}

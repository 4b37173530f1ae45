/**
 * `coverage normalize FILE`: prints what the X12 engine reads from a file (or stdin for "-").
 * A 271 prints its Eligibility, a 270 its Inquiry, a 999 its acknowledgment, as
 * {"transaction_set", "result", "warnings"}.
 *
 * With --session-cost CENTS a 271's coverage is also priced as /v1/estimate would price it (no
 * carve-out administrator is asked), and `explanation` says where each figure came from: the EB
 * segment (position and text) and the rule that chose it, then the steps of the member's share.
 *
 * With --fhir a 271 prints instead the FHIR R4 CoverageEligibilityResponse the FHIR door would
 * answer (docs/fhir.md), or, for a rejection, its OperationOutcome; any other file exits 1.
 *
 * Exit codes: 0 when the file was read, including a 271 whose AAA rejects the inquiry (the
 * rejection is the payer's answer, printed as JSON with kind "rejected"); 1 when the file is not
 * readable X12 (the error names the fault and its segment position); 2 when the file cannot be read.
 */
import { readFile } from 'node:fs/promises';
import type { EstimateRequest } from '../domain/schemas/requests.ts';
import { withoutMedicalPrice } from '../operations/carve-out.ts';
import { estimateBody } from '../operations/estimate.ts';
import { defaultEncounter } from '../domain/encounter.ts';
import { estimateExplanation } from '../operations/explain.ts';
import { operationOutcome } from '../fhir/outcome.ts';
import { eligibilityResponse } from '../fhir/response-out.ts';
import { detectTransactionSet, normalize271, parse270, parse999, type Eligibility, type ParseResult, type TraceEntry, type X12Error } from '../x12/index.ts';
import { systemClock } from '../domain/clock.ts';

export interface PriceOptions {
  /** The allowed amount of one session, in cents. */
  sessionCost: number;
  inNetwork: boolean;
  /** YYYY-MM-DD for plan status and resets. */
  today: string;
}

export interface Output {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

async function readInput(file: string): Promise<string> {
  if (file !== '-') return readFile(file, 'utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

function describeError(e: X12Error): string {
  const where = [
    e.segment_index !== null ? `segment ${e.segment_index}${e.segment_id ? ` (${e.segment_id})` : ''}` : e.segment_id ? `segment ${e.segment_id}` : null,
    e.offset !== null ? `offset ${e.offset}` : null,
  ].filter((s) => s !== null);
  return `${e.message}${where.length > 0 ? ` [at ${where.join(', ')}]` : ''}`;
}

function priced(result: Eligibility, trace: TraceEntry[], price: PriceOptions) {
  if (result.kind !== 'coverage') return {};
  const coverage = withoutMedicalPrice(result.coverage);
  const request = { provider_session_cost: price.sessionCost, in_network: price.inNetwork } as EstimateRequest;
  const { status, body } = estimateBody(coverage, request, price.today);
  return { estimate: { status, body }, explanation: estimateExplanation(coverage, body, { trace, administrator: null, date_of_service: price.today }) };
}

/**
 * --fhir: the CoverageEligibilityResponse the FHIR door would answer for this 271 (docs/fhir.md),
 * priced at --session-cost when given; a rejection is the OperationOutcome it would answer instead.
 */
function fhirAnswer(result: Eligibility, price: PriceOptions | undefined, today: string) {
  if (result.kind !== 'coverage') return operationOutcome({ error_code: result.error_code, message: result.reason });
  const coverage = withoutMedicalPrice(result.coverage);
  const request = { in_network: price?.inNetwork ?? true, ...(price ? { provider_session_cost: price.sessionCost } : {}) } as EstimateRequest;
  const { body } = estimateBody(coverage, request, today);
  const member = coverage.member;
  return eligibilityResponse({
    purpose: 'benefits',
    body,
    coverage,
    context: {
      patient: {
        ...(member.member_id
          ? { identifier: { type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MB' }] }, value: member.member_id } }
          : {}),
        display: [member.first_name, member.last_name].filter((s) => s).join(' ') || 'The member the 271 answers for',
      },
      insurer: { display: coverage.payer_name },
      coverage: null,
      purpose: ['benefits'],
      servicedDate: undefined,
      contained: undefined,
    },
    request: { display: 'The 270 this 271 answers' },
    created: today,
  });
}

export async function runNormalize(file: string, out: Output, price?: PriceOptions, options: { fhir?: boolean; today?: string } = {}): Promise<number> {
  let text: string;
  try {
    text = await readInput(file);
  } catch (err) {
    out.stderr(`coverage normalize: cannot read ${file === '-' ? 'stdin' : file}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  const kind = detectTransactionSet(text) ?? '271';
  const trace: TraceEntry[] = [];
  // Priced, the 271 is read for an office visit on --today (the service's date), as /v1/estimate reads it.
  const result: ParseResult<unknown> =
    kind === '270' ? parse270(text) : kind === '999' ? parse999(text) : normalize271(text, price ? { trace, encounter: defaultEncounter(price.today) } : {});
  if (!result.ok) {
    out.stderr(`coverage normalize: not a readable ${kind}: ${describeError(result.error)}\n`);
    return 1;
  }
  if (options.fhir) {
    if (kind !== '271') {
      out.stderr(`coverage normalize: --fhir reads a 271; this file is a ${kind}\n`);
      return 1;
    }
    const today = price?.today ?? options.today ?? systemClock.today();
    out.stdout(`${JSON.stringify(fhirAnswer(result.value as Eligibility, price, today), null, 2)}\n`);
    return 0;
  }
  const extra = price && kind === '271' ? priced(result.value as Eligibility, trace, price) : {};
  out.stdout(`${JSON.stringify({ transaction_set: kind, result: result.value, warnings: result.warnings, ...extra }, null, 2)}\n`);
  return 0;
}

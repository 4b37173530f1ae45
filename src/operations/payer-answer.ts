/**
 * What askPayer (ask-payer.ts) makes of a payer's answer: `decodeAnswer` refuses a 999 and reads a 271
 * into the normalizer's result for this encounter; `acceptOrReject` refuses an AAA rejection and an
 * answer to another inquiry (its trace number), and keeps the rest as the answer the caller gets.
 */
import { OFFICE_PLACE_OF_SERVICE, type Encounter } from '../domain/encounter.ts';
import type { Inquiry } from '../domain/inquiry.ts';
import { AAA_RETRY_AFTER_SECONDS, normalize271, normalizeInterchange, parse999, detectTransactionSet, type TraceEntry } from '../x12/index.ts';
import { aaaPayerErrors, payerError } from '../x12/payer-errors.ts';
import type { OperationDeps, PayerAnswerResult } from './context.ts';
import { OperationErrors } from './errors.ts';
import type { Exchanged } from './payer-exchange.ts';

export type Decoded = Extract<ReturnType<typeof normalize271>, { ok: true }>;

/** The 271 read for this inquiry's encounter; a 999 or an unreadable answer is a PAYER_FAILURE. `trace` collects where each figure came from. */
export function decodeAnswer(deps: OperationDeps, inquiry: Inquiry, { answer, read }: Pick<Exchanged, 'answer' | 'read'>, trace?: TraceEntry[]): Decoded {
  const payerId = inquiry.payer.id;
  const kind = detectTransactionSet(answer);
  if (kind === '999') {
    const ack = parse999(answer);
    // Codes only: a 999's IK4 may quote the rejected element (a name or member ID) back.
    const detail = ack.ok ? ack.value.errors.map((e) => `${e.segment_id ?? '?'}:${e.code}`).join('; ') || 'no error codes' : 'unreadable 999';
    throw OperationErrors.payerRejected999().with({ reason: `999 reject: ${detail}` });
  }
  // The rows that apply to this encounter (docs/estimates.md section 1.1); the cache key holds the encounter too.
  const encounter: Encounter = {
    date_of_service: inquiry.date,
    procedure_code: inquiry.procedure_code ?? null,
    place_of_service: inquiry.place_of_service ?? OFFICE_PLACE_OF_SERVICE,
  };
  const memberId = inquiry.subscriber.member_id;
  // The patient: the 270's dependent when it asks about one, else its subscriber (x12/patient.ts).
  const patient = inquiry.dependent ?? inquiry.subscriber;
  const person = { member_id: memberId, first_name: patient.first_name, last_name: patient.last_name, dob: patient.dob };
  // The payer directory's fallback order of the 98 and 30 cost shares (docs/estimates.md 1.1, "Fallback order").
  const fallback = deps.network.payer(payerId)?.cost_share_fallback;
  // The treating provider a row naming one in its 2120C is held to (docs/estimates.md 1.1, "Rows for a named provider").
  const providerNpi = inquiry.provider.npi;
  const base = fallback ? { encounter, memberId, person, fallback, providerNpi } : { encounter, memberId, person, providerNpi };
  const options = trace ? { ...base, trace } : base;
  const parsed = read ? normalizeInterchange(read, options) : normalize271(answer, options);
  if (!parsed.ok) {
    const e = parsed.error;
    throw OperationErrors.answerUnreadable().with({
      // The parser's words, without what it quotes of the answer (a garbled segment may be a name).
      reason: `unreadable 271 at segment ${e.segment_index ?? '?'} (${/^[A-Z][A-Z0-9]{1,2}$/.test(e.segment_id ?? '') ? e.segment_id : '?'}): ${e.message.replace(/"[^"]*"/g, '"…"')}`,
    });
  }
  return parsed;
}

/** The caller's answer from a decoded 271, or the error an AAA rejection or a trace mismatch makes. */
export function acceptOrReject(inquiry: Inquiry, { answer, route, answeredTrace, renamed }: Exchanged, parsed: Decoded): PayerAnswerResult {
  const payerId = inquiry.payer.id;
  const result = parsed.value;
  if (result.kind === 'rejected') {
    const listed = aaaPayerErrors(answer);
    throw OperationErrors.rejected(result.error_code).with({
      reason: result.reason,
      payer_errors: listed.length > 0 ? listed : [payerError(result.reason_code, result.followup || null, null)],
      ...(result.error_code === 'TOO_MANY_REQUESTS' ? { retryAfterSeconds: AAA_RETRY_AFTER_SECONDS } : {}),
    });
  }
  if (result.trace_number !== null && result.trace_number !== answeredTrace) {
    throw OperationErrors.answerToAnother().with({ reason: 'TRN trace number mismatch' });
  }
  // AAA beside benefits (a 2110 loop the payer could not answer): told on partial answers.
  const payerErrors = aaaPayerErrors(answer);
  const value: PayerAnswerResult = {
    // The directory's ID when a connection answers under its own, or the 271 names the payer by no payer ID (NM108 other than PI).
    coverage: renamed || result.coverage.payer_id === '' ? { ...result.coverage, payer_id: payerId } : result.coverage,
    warnings: parsed.warnings,
    ...(route !== null ? { route } : {}),
    ...(payerErrors.length > 0 ? { payer_errors: payerErrors } : {}),
  };
  return value;
}

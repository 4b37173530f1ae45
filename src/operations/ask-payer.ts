/** One round trip to a payer: 270 out, 271 (or 999) back, normalized to Coverage or a service error. */
import { ServiceError } from '../domain/errors.ts';
import { OFFICE_PLACE_OF_SERVICE, type Encounter } from '../domain/encounter.ts';
import type { Inquiry } from '../domain/inquiry.ts';
import { PayerError } from '../payers/network.ts';
import { RequestRefused } from '../payers/production/errors.ts';
import {
  AAA_RETRY_AFTER_SECONDS,
  build270,
  detectTransactionSet,
  normalize271,
  normalizeInterchange,
  parse999,
  readInterchange,
  type Interchange,
  type ParseResult,
  type TraceEntry,
} from '../x12/index.ts';
import { aaaPayerErrors, payerError } from '../x12/payer-errors.ts';
import { coverageCacheKey } from './cache.ts';
import { newTraceNumber } from './inquiry.ts';
import { lacksBehavioralDetail, planLength, serviceTypesFor } from './service-types.ts';
import type { CallContext, OperationDeps, PayerAnswerResult } from './context.ts';
import { OperationErrors } from './errors.ts';

let controlNumber = Math.floor(Math.random() * 900_000_000);
const nextControlNumber = () => (controlNumber = (controlNumber % 999_999_999) + 1);

const listed = (fields: string[]) => (fields.length <= 1 ? fields.join('') : `${fields.slice(0, -1).join(', ')} and ${fields[fields.length - 1]}`);

export function payerErrorToServiceError(err: PayerError): ServiceError {
  // Our request was refused, not the payer broken: the caller can fix it (docs/payer-directory.md, "What the caller sees").
  if (err instanceof RequestRefused) {
    return OperationErrors.requestRefused(err.fields.length > 0 ? listed(err.fields) : null).with({
      reason: `refused: ${err.reason}`,
      ...(err.fields.length > 0 ? { errors: err.fields.map((field) => ({ field, message: 'required by this payer route' })) } : {}),
    });
  }
  if (err.kind === 'throttled') {
    return OperationErrors.payerThrottling().with({
      retryAfterSeconds: err.retryAfterSeconds ?? 60,
      reason: err.reason,
    });
  }
  return OperationErrors.payerFailed().with({
    reason: `${err.kind}: ${err.reason}`,
    ...(err.payerErrors?.length ? { payer_errors: err.payerErrors } : {}),
  });
}

/** `trace`: collect where each figure came from (an estimate with explain: true); the payer is then asked afresh. */
/**
 * A request that named only an NPI: the directory's provider of that NPI, else the practice (submitter) name.
 * A registered NPI's taxonomy goes along either way (2100B PRV), since it belongs to the NPI, not the name.
 */
function withProviderName(deps: OperationDeps, inquiry: Inquiry): Inquiry {
  const p = inquiry.provider;
  if (!deps.network.providerName) return inquiry;
  const known = deps.network.providerName(p.npi);
  if (!known) return inquiry;
  if (p.first_name || p.last_name) return known.taxonomy ? { ...inquiry, provider: { ...p, taxonomy: known.taxonomy } } : inquiry;
  return { ...inquiry, provider: { npi: p.npi, ...known } };
}

export async function askPayer(deps: OperationDeps, asked: Inquiry, ctx: CallContext, trace?: TraceEntry[]): Promise<PayerAnswerResult> {
  const inquiry = withProviderName(deps, asked);
  const payerId = inquiry.payer.id;
  const cacheKey = deps.cache ? coverageCacheKey(inquiry) : null;
  const cached = cacheKey && !trace ? await deps.cache!.get(cacheKey) : null;
  if (cached) {
    ctx.exchanges?.set(payerId, {
      route: cached.route ?? null,
      control_number: null,
      trace_number: inquiry.trace_number,
      ...(cached.payer_errors ? { payer_errors: cached.payer_errors } : {}),
    });
    return cached;
  }
  let answer: string;
  // readInterchange(answer), when the answer was read before it is normalized (one tokenization, not two).
  let read: ParseResult<Interchange> | null = null;
  let route: string | null = null;
  // The trace number of the 270 answered (a follow-up inquiry has its own: no payer takes it for a duplicate).
  let answeredTrace = inquiry.trace_number;
  // Answered under the connection's own payer ID: the caller still gets the directory's.
  let renamed = false;
  const started = performance.now();
  const exchangeCtx = {
    request_id: ctx.request_id,
    deadline: deps.clock.now() + deps.payerTimeoutMs,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(ctx.client_ips ? { client_ips: ctx.client_ips } : {}),
  };
  try {
    if (deps.network.inquire) {
      const inquire = deps.network.inquire.bind(deps.network);
      // Each route gets its own 270: its payer ID in 2100A, its receiver and usage indicator, its service
      // types for this step (service-types.ts), a fresh control number.
      const ask = async (step: number) => {
        const trace_number = step === 0 ? inquiry.trace_number : newTraceNumber();
        const sent = new Map<string, { payer_id: string; control_number: number; steps: number }>();
        const routed = await inquire(
          payerId,
          (r) => {
            const control_number = nextControlNumber();
            sent.set(r.connection, { payer_id: r.payer_id, control_number, steps: planLength(r) });
            const asked: Inquiry = { ...inquiry, trace_number, service_types: serviceTypesFor(r, step, inquiry) };
            return build270(r.payer_id === payerId ? asked : { ...asked, payer: { ...asked.payer, id: r.payer_id } }, { ...r, control_number });
          },
          exchangeCtx,
        );
        return { ...routed, ...sent.get(routed.route)!, trace_number };
      };
      let routed = await ask(0);
      if (routed.steps > 1) {
        read = readInterchange(routed.x12);
        // The answer says nothing of behavioral health: the route's next service types.
        if (lacksBehavioralDetail(read.ok ? read : routed.x12)) {
          const next = await ask(1).catch(() => null);
          const nextRead = next && detectTransactionSet(next.x12) === '271' ? readInterchange(next.x12) : null;
          const normalized = nextRead ? normalizeInterchange(nextRead) : null;
          if (next && normalized?.ok && normalized.value.kind === 'coverage') {
            routed = next;
            read = nextRead;
          }
        }
      }
      answer = routed.x12;
      route = routed.route;
      renamed = routed.payer_id !== payerId;
      answeredTrace = routed.trace_number;
      ctx.exchanges?.set(payerId, { route, control_number: routed.control_number, trace_number: answeredTrace });
    } else {
      const control_number = nextControlNumber();
      answer = await deps.network.exchange(payerId, build270(inquiry, { ...deps.network.interchange?.(payerId), control_number }), exchangeCtx);
      ctx.exchanges?.set(payerId, { route: null, control_number, trace_number: inquiry.trace_number });
    }
    deps.onPayerCall?.(payerId, performance.now() - started, 'ok');
  } catch (err) {
    deps.onPayerCall?.(payerId, performance.now() - started, err instanceof PayerError ? err.kind : 'error');
    if (err instanceof PayerError) throw payerErrorToServiceError(err);
    throw err;
  }
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
  const base = fallback ? { encounter, memberId, person, fallback } : { encounter, memberId, person };
  const options = trace ? { ...base, trace } : base;
  const parsed = read ? normalizeInterchange(read, options) : normalize271(answer, options);
  if (!parsed.ok) {
    const e = parsed.error;
    throw OperationErrors.answerUnreadable().with({
      // The parser's words, without what it quotes of the answer (a garbled segment may be a name).
      reason: `unreadable 271 at segment ${e.segment_index ?? '?'} (${/^[A-Z][A-Z0-9]{1,2}$/.test(e.segment_id ?? '') ? e.segment_id : '?'}): ${e.message.replace(/"[^"]*"/g, '"…"')}`,
    });
  }
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
  const exchange = ctx.exchanges?.get(payerId);
  if (exchange && payerErrors.length > 0) exchange.payer_errors = payerErrors;
  if (cacheKey) await deps.cache!.set(cacheKey, value);
  return value;
}

/**
 * The exchange of askPayer (ask-payer.ts): the 270 out and the answer back, by either protocol of the
 * PayerNetwork seam. A routed network (inquire) gets a 270 per route and, when the route plans a
 * second step and the first answer says nothing of behavioral health, the second step's service
 * types; a plain one (exchange) gets one 270. Times the call for metrics and turns a PayerError
 * into the ServiceError the caller sees.
 */
import type { ServiceError } from '../domain/errors.ts';
import type { Inquiry } from '../domain/inquiry.ts';
import { PayerError } from '../payers/network.ts';
import { RequestRefused } from '../payers/production/errors.ts';
import { build270, detectTransactionSet, normalizeInterchange, readInterchange, type Interchange, type ParseResult } from '../x12/index.ts';
import type { CallContext, OperationDeps } from './context.ts';
import { OperationErrors } from './errors.ts';
import { newTraceNumber } from './inquiry.ts';
import { lacksBehavioralDetail, planLength, serviceTypesFor } from './service-types.ts';

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

/** What came back from the payer, and how. */
export interface Exchanged {
  /** The X12 answer: a 271, or a 999. */
  answer: string;
  /** readInterchange(answer), when the answer was read before it is normalized (one tokenization, not two). */
  read: ParseResult<Interchange> | null;
  route: string | null;
  /** The trace number of the 270 answered (a follow-up inquiry has its own: no payer takes it for a duplicate). */
  answeredTrace: string;
  /** Answered under the connection's own payer ID: the caller still gets the directory's. */
  renamed: boolean;
}

type ExchangeContext = Parameters<OperationDeps['network']['exchange']>[2];
type Inquire = NonNullable<OperationDeps['network']['inquire']>;

/** The routed protocol: each route gets its own 270, and a second step when the route plans one and the first answer lacks behavioral detail. */
async function routedExchange(inquire: Inquire, inquiry: Inquiry, exchangeCtx: ExchangeContext, ctx: CallContext): Promise<Exchanged> {
  const payerId = inquiry.payer.id;
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
  let read: ParseResult<Interchange> | null = null;
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
  ctx.exchanges?.set(payerId, { route: routed.route, control_number: routed.control_number, trace_number: routed.trace_number });
  return { answer: routed.x12, read, route: routed.route, answeredTrace: routed.trace_number, renamed: routed.payer_id !== payerId };
}

/** The plain protocol: one 270 to the payer. */
async function plainExchange(deps: OperationDeps, inquiry: Inquiry, exchangeCtx: ExchangeContext, ctx: CallContext): Promise<Exchanged> {
  const payerId = inquiry.payer.id;
  const control_number = nextControlNumber();
  const answer = await deps.network.exchange(payerId, build270(inquiry, { ...deps.network.interchange(payerId), control_number }), exchangeCtx);
  ctx.exchanges?.set(payerId, { route: null, control_number, trace_number: inquiry.trace_number });
  return { answer, read: null, route: null, answeredTrace: inquiry.trace_number, renamed: false };
}

export async function exchangeWithPayer(deps: OperationDeps, inquiry: Inquiry, ctx: CallContext): Promise<Exchanged> {
  const payerId = inquiry.payer.id;
  const started = performance.now();
  const exchangeCtx: ExchangeContext = {
    request_id: ctx.request_id,
    deadline: deps.clock.now() + deps.payerTimeoutMs,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(ctx.client_ips ? { client_ips: ctx.client_ips } : {}),
  };
  try {
    const inquire = deps.network.inquire?.bind(deps.network);
    const exchanged = inquire ? await routedExchange(inquire, inquiry, exchangeCtx, ctx) : await plainExchange(deps, inquiry, exchangeCtx, ctx);
    deps.onPayerCall?.(payerId, performance.now() - started, 'ok');
    return exchanged;
  } catch (err) {
    deps.onPayerCall?.(payerId, performance.now() - started, err instanceof PayerError ? err.kind : 'error');
    if (err instanceof PayerError) throw payerErrorToServiceError(err);
    throw err;
  }
}

/**
 * One round trip to a payer: 270 out, 271 (or 999) back, normalized to Coverage or a service error.
 * Four steps, each in its own file: the cache (answer-cache.ts), the exchange by either protocol
 * (payer-exchange.ts), decoding the answer and accepting or rejecting it (payer-answer.ts).
 */
import type { Inquiry } from '../domain/inquiry.ts';
import type { TraceEntry } from '../x12/index.ts';
import { cachedAnswer, keepAnswer } from './answer-cache.ts';
import type { CallContext, OperationDeps, PayerAnswerResult } from './context.ts';
import { acceptOrReject, decodeAnswer } from './payer-answer.ts';
import { exchangeWithPayer } from './payer-exchange.ts';

export { payerErrorToServiceError } from './payer-exchange.ts';

/**
 * A request that named only an NPI: the directory's provider of that NPI, else the practice (submitter) name.
 * A registered NPI's taxonomy goes along either way (2100B PRV), since it belongs to the NPI, not the name.
 */
function withProviderName(deps: OperationDeps, inquiry: Inquiry): Inquiry {
  const p = inquiry.provider;
  const known = deps.network.providerName(p.npi);
  if (!known) return inquiry;
  if (p.first_name || p.last_name) return known.taxonomy ? { ...inquiry, provider: { ...p, taxonomy: known.taxonomy } } : inquiry;
  return { ...inquiry, provider: { npi: p.npi, ...known } };
}

/** `trace`: collect where each figure came from (an estimate with explain: true); the payer is then asked afresh. */
export async function askPayer(deps: OperationDeps, asked: Inquiry, ctx: CallContext, trace?: TraceEntry[]): Promise<PayerAnswerResult> {
  const inquiry = withProviderName(deps, asked);
  const cached = trace ? null : await cachedAnswer(deps, inquiry, ctx);
  if (cached) return cached;
  const exchanged = await exchangeWithPayer(deps, inquiry, ctx);
  const value = acceptOrReject(inquiry, exchanged, decodeAnswer(deps, inquiry, exchanged, trace));
  const exchange = ctx.exchanges?.get(inquiry.payer.id);
  if (exchange && value.payer_errors) exchange.payer_errors = value.payer_errors;
  await keepAnswer(deps, inquiry, value);
  return value;
}

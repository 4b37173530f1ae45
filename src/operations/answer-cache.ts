/**
 * askPayer's cache (ask-payer.ts): an answer kept per payer, identity and encounter
 * (coverageCacheKey) is given again, with the exchange it came from noted for the audit; production
 * only (deps.cache). An estimate that explains itself always asks the payer afresh.
 */
import type { Inquiry } from '../domain/inquiry.ts';
import { coverageCacheKey } from './cache.ts';
import type { CallContext, OperationDeps, PayerAnswerResult } from './context.ts';

export async function cachedAnswer(deps: OperationDeps, inquiry: Inquiry, ctx: CallContext): Promise<PayerAnswerResult | null> {
  if (!deps.cache) return null;
  const cached = await deps.cache.get(coverageCacheKey(inquiry));
  if (cached) {
    ctx.exchanges?.set(inquiry.payer.id, {
      route: cached.route ?? null,
      control_number: null,
      trace_number: inquiry.trace_number,
      ...(cached.payer_errors ? { payer_errors: cached.payer_errors } : {}),
    });
  }
  return cached;
}

export async function keepAnswer(deps: OperationDeps, inquiry: Inquiry, value: PayerAnswerResult): Promise<void> {
  if (deps.cache) await deps.cache.set(coverageCacheKey(inquiry), value);
}

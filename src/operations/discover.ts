/** Discover: one known payer, searched by name + DOB + ZIP; the thin plan payload. */
import type { DiscoverRequest } from '../domain/schemas/requests.ts';
import type { DiscoverResponse } from '../domain/schemas/responses.ts';
import type { TraceEntry } from '../x12/index.ts';
import { askPayer } from './ask-payer.ts';
import type { CallContext, OperationDeps } from './context.ts';
import type { OperationResult } from './estimate.ts';
import { discoverExplanation } from './explain.ts';
import { buildInquiry } from './inquiry.ts';
import { planFields } from './present.ts';
import { requireSearch, resolvePayer } from './resolve-payer.ts';

/** A blank ZIP means 10001 in the sandbox (docs/interface.md 7.7). */
export function effectiveZip(deps: OperationDeps, zip: string): string | undefined {
  if (zip.trim() !== '') return zip;
  return deps.network.mode === 'sandbox' ? '10001' : undefined;
}

export async function runDiscover(deps: OperationDeps, req: DiscoverRequest, ctx: CallContext): Promise<OperationResult<DiscoverResponse>> {
  const payerId = resolvePayer(deps.network, req.payer_id);
  requireSearch(deps.network, payerId);
  const today = deps.clock.today();
  const inquiry = buildInquiry(
    { payer_id: payerId, first_name: req.member_first_name, last_name: req.member_last_name, dob: req.member_dob, zip: effectiveZip(deps, req.zip) },
    today,
  );
  const trace: TraceEntry[] | undefined = req.explain === true ? [] : undefined;
  const { coverage } = await askPayer(deps, inquiry, ctx, trace);
  const body = planFields(coverage, { first_name: req.member_first_name, last_name: req.member_last_name, dob: req.member_dob }, today);
  if (trace) body.explanation = discoverExplanation(trace);
  return { status: 200, body, payer_id: coverage.payer_id, coverage };
}

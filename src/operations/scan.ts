/** Scan: ask every payer that answers searches, in parallel under one deadline; keep the best match. */
import type { Coverage } from '../domain/coverage.ts';
import { ServiceError } from '../domain/errors.ts';
import type { ScanRequest } from '../domain/schemas/requests.ts';
import type { PlanStatus, ScanResponse } from '../domain/schemas/responses.ts';
import { askPayer } from './ask-payer.ts';
import type { CallContext, OperationDeps } from './context.ts';
import { effectiveZip } from './discover.ts';
import type { OperationResult } from './estimate.ts';
import { buildInquiry } from './inquiry.ts';
import { planFields } from './present.ts';
import { OperationErrors } from './errors.ts';

const RANK: Record<PlanStatus, number> = { ACTIVE: 0, ACTIVE_AT_RISK: 1, INACTIVE: 2 };

type Outcome = { payer_id: string; coverage: Coverage } | { payer_id: string; error: ServiceError };

export async function runScan(deps: OperationDeps, req: ScanRequest, ctx: CallContext): Promise<OperationResult<ScanResponse>> {
  const today = deps.clock.today();
  const payers = deps.network.payers().filter((p) => p.supports_search);
  const identity = { first_name: req.member_first_name, last_name: req.member_last_name, dob: req.member_dob };
  const zip = effectiveZip(deps, req.zip);
  // One deadline for the whole scan: when it passes, every exchange still in flight is aborted.
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), deps.scanTimeoutMs);
  const scanCtx: CallContext = { ...ctx, signal: ctx.signal ? AbortSignal.any([ctx.signal, stop.signal]) : stop.signal };
  // The same deadline also ends waits on networks that do not watch the signal.
  const deadline = new Promise<never>((_, reject) => {
    stop.signal.addEventListener('abort', () => reject(OperationErrors.scanDeadline().with({ reason: 'scan deadline' })), {
      once: true,
    });
  });
  deadline.catch(() => {});
  const outcomes = await Promise.all(
    payers.map(async (p): Promise<Outcome> => {
      const inquiry = buildInquiry({ payer_id: p.payer_id, ...identity, zip }, today);
      try {
        const { coverage } = await Promise.race([askPayer(deps, inquiry, scanCtx), deadline]);
        return { payer_id: p.payer_id, coverage };
      } catch (err) {
        if (err instanceof ServiceError) return { payer_id: p.payer_id, error: err };
        throw err;
      }
    }),
  ).finally(() => clearTimeout(timer));
  const found = outcomes
    .flatMap((o) => ('coverage' in o ? [{ coverage: o.coverage, fields: planFields(o.coverage, identity, today) }] : []))
    .sort((a, b) => RANK[a.fields.plan_status] - RANK[b.fields.plan_status]);
  const failed = outcomes.flatMap((o) => ('error' in o && o.error.code !== 'MEMBER_NOT_FOUND' ? [{ payer_id: o.payer_id, error_code: o.error.code }] : []));
  const best = found[0];
  if (!best) {
    if (failed.length > 0) {
      throw OperationErrors.payersCouldNotAnswer(failed.length, payers.length);
    }
    throw OperationErrors.notFoundAtPayers(payers.length);
  }
  return {
    status: 200,
    body: { ...best.fields, payers_checked: payers.length, payers_failed: failed },
    payer_id: best.coverage.payer_id,
    coverage: best.coverage,
  };
}

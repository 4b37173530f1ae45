/** One batch row as its real-time endpoint would answer it: the same operation, the same status and body. */
import type { RowResult } from '../domain/batch.ts';
import { ServiceError } from '../domain/errors.ts';
import type { DiscoverRequest, EstimateRequest, MedicaidRequest, OperationName, ScanRequest } from '../domain/schemas/requests.ts';
import type { PayerNetwork } from '../payers/network.ts';
import { annotateAnswer, exchangeFor, type CallContext, type ExchangeRecord, type OperationDeps } from './context.ts';
import { runDiscover } from './discover.ts';
import { runEstimate } from './estimate.ts';
import { runMedicaid } from './medicaid.ts';
import { findPayerId } from './resolve-payer.ts';
import { runScan } from './scan.ts';

export interface CheckOutcome {
  result: RowResult;
  /** The payer that answered, when one did. */
  payerId: string | null;
}

/** Rows are validated when the batch is accepted; the body is the endpoint's request by then. */
async function dispatch(deps: OperationDeps, endpoint: OperationName, request: Record<string, unknown>, ctx: CallContext) {
  switch (endpoint) {
    case 'estimate':
      return runEstimate(deps, request as EstimateRequest, ctx);
    case 'discover':
      return runDiscover(deps, request as DiscoverRequest, ctx);
    case 'scan':
      return runScan(deps, request as ScanRequest, ctx);
    case 'medicaid':
      return runMedicaid(deps, request as MedicaidRequest, ctx);
  }
}

export async function runCheck(deps: OperationDeps, endpoint: OperationName, request: Record<string, unknown>, ctx: CallContext): Promise<CheckOutcome> {
  const exchanges = ctx.exchanges ?? new Map<string, ExchangeRecord>();
  try {
    const { status, body, payer_id } = await dispatch(deps, endpoint, request, { ...ctx, exchanges });
    annotateAnswer(status, body, exchangeFor(exchanges, payer_id));
    const code = (body as { error_code?: unknown }).error_code;
    return { result: { status, error_code: typeof code === 'string' ? code : null, body }, payerId: payer_id };
  } catch (err) {
    if (err instanceof ServiceError) {
      const body = {
        error_code: err.code,
        message: err.message,
        request_id: ctx.request_id,
        ...(err.details.errors ? { errors: err.details.errors } : {}),
        ...(err.details.payer_errors?.length ? { payer_errors: err.details.payer_errors } : {}),
      };
      return { result: { status: err.status, error_code: err.code, body }, payerId: null };
    }
    throw err;
  }
}

export const SCAN_PAYER_KEY = '*scan';

/** Which payer a row goes to, for per-payer concurrency: scans fan out to many and share one key. */
export function payerKeyOf(network: PayerNetwork, endpoint: OperationName, request: Record<string, unknown>): string {
  if (endpoint === 'scan') return SCAN_PAYER_KEY;
  const payerId = typeof request.payer_id === 'string' ? request.payer_id.trim() : '';
  if (payerId !== '') return findPayerId(network, payerId) ?? payerId;
  if (endpoint === 'medicaid' && typeof request.patient_state === 'string') {
    const state = request.patient_state;
    return network.payers().find((p) => p.medicaid_state === state)?.payer_id ?? `medicaid:${state}`;
  }
  return network.anyPayerId ?? '';
}

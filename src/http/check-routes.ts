/** Which requests are checks: the four operations, the ones rate limits, audit and usage count. */
import type { FastifyRequest } from 'fastify';
import { OPERATIONS, type OperationName } from '../domain/schemas/requests.ts';
import type { ExchangeRecord } from '../operations/context.ts';

/**
 * One check of a request sent in another shape (the FHIR door: one CoverageEligibilityRequest, or
 * each of a Bundle's), for its own audit record (audit-hook.ts, docs/security.md).
 */
export interface CheckAudit {
  /** The request's id, or `<id>.<n>` for the n-th request of a Bundle. */
  request_id: string;
  operation: OperationName;
  /** The check in our JSON names once it passed validation (what the member hash is of); null while refused. */
  body: unknown;
  /** The payer that answered, or the one the check named. */
  payerId: string | null;
  status: number;
  errorCode: string | null;
  exchange: ExchangeRecord | null;
  latencyMs: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The checks a request in another shape ran, each audited on its own; null on /v1, where the body is the one check. */
    checkAudits: CheckAudit[] | null;
  }
}

/** The FHIR door's operation (routes/fhir.ts): its checks are estimates until the handler names discover or scan. */
export const FHIR_SUBMIT_PATH = '/fhir/r4/CoverageEligibilityRequest/$submit';

const CHECK_ROUTES = new Map<string, OperationName>([...OPERATIONS.map((op) => [`/v1/${op}`, op] as const), [FHIR_SUBMIT_PATH, 'estimate']]);

/** The operation a route pattern serves, or null when it is not a check. */
export function checkOperation(method: string | string[], pattern: string | undefined): OperationName | null {
  if (method !== 'POST') return null;
  return CHECK_ROUTES.get(pattern ?? '') ?? null;
}

/** The operation a request asks for (by the route it matched), or null when it is not a check. */
export function checkEndpoint(request: FastifyRequest): OperationName | null {
  const route = checkOperation(request.method, request.routeOptions.url);
  return route && (request.operation ?? route);
}

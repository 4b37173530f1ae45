/** Which requests are checks: the four operations, the ones rate limits, audit and usage count. */
import type { FastifyRequest } from 'fastify';
import { OPERATIONS, type OperationName } from '../domain/schemas/requests.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** A check sent in another shape (the FHIR door), in our JSON names once translated: what the audit hashes. */
    checkBody: unknown;
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

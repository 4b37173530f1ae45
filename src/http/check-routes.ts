/** Which requests are checks: the four operations, the ones rate limits, audit and usage count. */
import type { FastifyRequest } from 'fastify';
import { OPERATIONS, type OperationName } from '../domain/schemas/requests.ts';

const CHECK_ROUTES = new Map<string, OperationName>(OPERATIONS.map((op) => [`/v1/${op}`, op] as const));

/** The operation a route pattern serves, or null when it is not a check. */
export function checkOperation(method: string | string[], pattern: string | undefined): OperationName | null {
  if (method !== 'POST') return null;
  return CHECK_ROUTES.get(pattern ?? '') ?? null;
}

/** The operation a request asks for (by the route it matched), or null when it is not a check. */
export function checkEndpoint(request: FastifyRequest): OperationName | null {
  return checkOperation(request.method, request.routeOptions.url);
}

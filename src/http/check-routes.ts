/** Which requests are checks: the four operations, the ones rate limits, audit and usage count. */
import type { FastifyRequest } from 'fastify';
import { OPERATIONS, type OperationName } from '../domain/schemas/requests.ts';

const CHECK_ROUTES = new Map<string, OperationName>(OPERATIONS.flatMap((op) => [[`/v1/${op}`, op], [`/v1/${op}/`, op]] as const));

/** The operation a request asks for, or null when it is not a check. */
export function checkEndpoint(request: FastifyRequest): OperationName | null {
  if (request.method !== 'POST') return null;
  return CHECK_ROUTES.get(request.routeOptions.url ?? '') ?? null;
}

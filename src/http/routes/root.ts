/**
 * GET /: where to go from the bare address. A browser is sent to the console; an API client gets
 * a small JSON index of the console, the docs and the OpenAPI document.
 */
import type { FastifyInstance } from 'fastify';

export const ROOT_INDEX = {
  service: 'coverage',
  console: '/console/',
  docs: '/docs',
  openapi: '/openapi.json',
  api: '/v1',
} as const;

/** Browsers put text/html first in Accept; curl and fetch send the wildcard or JSON. */
const wantsHtml = (accept: string | undefined) => /\btext\/html\b/i.test(accept ?? '');

export function registerRootRoute(app: FastifyInstance): void {
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    if (wantsHtml(request.headers.accept)) return reply.redirect('/console/');
    reply.header('cache-control', 'no-store');
    return ROOT_INDEX;
  });
}

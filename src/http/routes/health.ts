/** Liveness and readiness probes. */
import type { FastifyInstance } from 'fastify';

export function registerHealthRoutes(app: FastifyInstance, ready: () => Promise<void>): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    try {
      await ready();
      return { status: 'ready' };
    } catch {
      request.log.warn('readiness check failed: store unreachable');
      return reply.code(503).send({ status: 'unavailable' });
    }
  });
}

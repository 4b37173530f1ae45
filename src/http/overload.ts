/**
 * Load shedding with @fastify/under-pressure: when the event loop lags or the heap nears its
 * limit, a request is answered at once with 503 SERVICE_UNAVAILABLE and Retry-After instead of
 * joining the work that is already late. Checked before authentication, so shedding costs nothing.
 * The liveness probe and /metrics are exempt (a busy process is alive, and its metrics show why);
 * /readyz is not, so a load balancer sends traffic to another instance meanwhile.
 */
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import { HttpErrors } from './errors.ts';

export interface OverloadOptions {
  /** Mean event-loop delay over a one-second sample past which requests are shed; 0 turns it off. */
  maxEventLoopDelayMs: number;
  /** V8 heap in use past which requests are shed; 0 turns it off. */
  maxHeapUsedBytes: number;
  retryAfterSeconds: number;
}

const EXEMPT = new Set(['/healthz', '/metrics']);

export async function installOverload(app: FastifyInstance, options: OverloadOptions): Promise<void> {
  if (options.maxEventLoopDelayMs === 0 && options.maxHeapUsedBytes === 0) return;
  await app.register(underPressure, {
    maxEventLoopDelay: options.maxEventLoopDelayMs,
    maxHeapUsedBytes: options.maxHeapUsedBytes,
    // Returning nothing lets the request through; a rejection goes to the error handler (errors.ts),
    // which answers in the API's error shape with the Retry-After header.
    pressureHandler: (request) => {
      if (EXEMPT.has(request.routeOptions.url ?? '')) return;
      return Promise.reject(HttpErrors.overloaded().with({ retryAfterSeconds: options.retryAfterSeconds }));
    },
  });
}

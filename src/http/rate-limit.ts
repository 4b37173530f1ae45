/**
 * Checks per API key per minute (docs/interface.md section 5): a fixed 60-second window, shared by every
 * instance through Redis when one is given, in memory otherwise. The limit is attached to the check
 * routes themselves (not decided from the URL), right after auth/auth.ts's check, so the bucket is the
 * key's; only the check endpoints count.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { hookList } from './route-hooks.ts';
import type { Redis } from 'ioredis';
import { checkOperation } from './check-routes.ts';
import { HttpErrors } from './errors.ts';

export const DEFAULT_CHECKS_PER_MINUTE = 50;
const WINDOW_MS = 60_000;

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Counts more checks of this request against its key's limit (a FHIR Bundle is one check per
     * request it holds, routes/fhir.ts): null where the request is not limited, or the seconds to
     * wait when the limit is passed.
     */
    countMoreChecks: ((n: number) => Promise<number | null>) | null;
  }
}

export interface RateLimitOptions {
  redis?: Redis | null;
  defaultPerMinute?: number;
}

export async function installRateLimit(app: FastifyInstance, options: RateLimitOptions = {}): Promise<void> {
  const defaultPerMinute = options.defaultPerMinute ?? DEFAULT_CHECKS_PER_MINUTE;
  await app.register(rateLimit, {
    global: false,
    timeWindow: WINDOW_MS,
    max: (request) => request.apiKey?.rate_limit_per_minute ?? defaultPerMinute,
    keyGenerator: (request) => request.apiKey?.id ?? request.ip,
    ...(options.redis ? { redis: options.redis, nameSpace: 'coverage:checks-per-minute:' } : {}),
  });
  const limit = app.createRateLimit();
  app.decorateRequest('countMoreChecks', null);

  async function limitChecks(request: FastifyRequest, reply: FastifyReply) {
    if (!request.apiKey) return;
    request.countMoreChecks = async (n) => {
      for (let i = 0; i < n; i++) {
        const more = await limit(request).catch(() => null);
        if (more && !more.isAllowed && more.isExceeded) return more.ttlInSeconds;
      }
      return null;
    };
    let result: Awaited<ReturnType<typeof limit>>;
    try {
      result = await limit(request);
    } catch (err) {
      // An unreachable Redis must not take the service down with it: the check goes ahead, and says so.
      request.log.warn({ err_type: (err as Error)?.name }, 'rate limit store unreachable; request not counted');
      return;
    }
    if (result.isAllowed) return;
    reply.header('ratelimit-limit', result.max);
    reply.header('ratelimit-remaining', result.remaining);
    reply.header('ratelimit-reset', result.ttlInSeconds);
    if (!result.isExceeded) return;
    reply.header('retry-after', result.ttlInSeconds);
    throw HttpErrors.checksPerMinute(result.max, result.ttlInSeconds);
  }

  app.addHook('onRoute', (route) => {
    if (!checkOperation(route.method, route.url)) return;
    const existing = hookList<onRequestHookHandler>(route.onRequest);
    if (!existing.includes(limitChecks)) route.onRequest = [...existing, limitChecks];
  });
}

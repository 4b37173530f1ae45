/**
 * The JSON API's fixed security headers, set by route (auth/public-routes.ts says which routes are HTML
 * pages with helmet's headers instead) and on every 404. Helmet is reserved for the pages: it costs throughput.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import { hookList } from './route-hooks.ts';
import { routeAccess } from './auth/public-routes.ts';

export const API_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

// Callback style: no promise per response on the hot path.
function apiHeaders(_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void): void {
  reply.headers(API_HEADERS);
  done(null, payload);
}

/** Call before the routes are added. */
export function installApiHeaders(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (routeAccess(route.url ?? '').kind === 'page') return;
    const existing = hookList<onSendHookHandler>(route.onSend);
    if (!existing.includes(apiHeaders)) route.onSend = [...existing, apiHeaders];
  });
}

/**
 * Who may call a route: an API key in the apikey header, or a person signed in to the console
 * (console-auth.ts), checked before any body is read. The check is attached to each route when it
 * is registered, unless public-routes.ts lists the route: access follows the route the router
 * matched, never the URL as typed, so no spelling of a path (percent-encoded, absolute-form, dot
 * segments) that reaches a route skips it, and a route added later is closed until listed.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { ApiKey, KeyStore } from '../store/keys.ts';
import { sessionPrincipal } from './console-auth.ts';
import { sendError } from './errors.ts';
import { routeAccess } from './public-routes.ts';
import { hookList } from './route-hooks.ts';
import type { Mode } from '../domain/mode.ts';

export interface RegisteredRoute {
  method: string;
  /** The pattern as registered, e.g. /v1/batches/:id. */
  url: string;
  public: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: ApiKey | null;
  }
  interface FastifyInstance {
    /** Every route the app serves and whether it is public: for the path-variant security suite. */
    registeredRoutes: readonly RegisteredRoute[];
  }
}

export function installAuth(app: FastifyInstance, keys: KeyStore, mode: Mode): void {
  app.decorateRequest('apiKey', null);
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);

  async function authenticate(request: FastifyRequest, reply: FastifyReply) {
    const header = request.headers.apikey;
    const secret = Array.isArray(header) ? header[0] : header;
    if (!secret) {
      const session = await sessionPrincipal(request);
      if (!session) return sendError(reply, request, 401, 'UNAUTHORIZED', 'Missing apikey header');
      if (!session.ok) return sendError(reply, request, 401, 'UNAUTHORIZED', session.message);
      request.apiKey = session.apiKey;
      return;
    }
    const key = await keys.verify(secret);
    if (!key) return sendError(reply, request, 401, 'UNAUTHORIZED', 'Unknown or revoked API key');
    if (key.env !== mode) {
      return sendError(reply, request, 401, 'UNAUTHORIZED', `This is a ${key.env} key; this server serves the ${mode} network`);
    }
    request.apiKey = key;
  }

  app.addHook('onRoute', (route) => {
    const access = routeAccess(route.url ?? '');
    for (const method of [route.method].flat()) routes.push({ method, url: route.url ?? '', public: access.public });
    if (access.public) return;
    const existing = hookList<onRequestHookHandler>(route.onRequest);
    // First, before any hook of the route's own: nothing runs for a caller who is not let in.
    if (!existing.includes(authenticate)) route.onRequest = [authenticate, ...existing];
  });
}

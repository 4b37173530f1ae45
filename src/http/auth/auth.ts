/**
 * Who may call a route: an API key in the apikey header, or a person signed in to the console
 * (console-auth.ts), checked before any body is read. The check is attached to each route when it
 * is registered, unless public-routes.ts lists the route: access follows the route the router
 * matched, never the URL as typed, so no spelling of a path (percent-encoded, absolute-form, dot
 * segments) that reaches a route skips it, and a route added later is closed until listed.
 */
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { ApiKey, KeyStore } from '../../store/keys.ts';
import { sessionPrincipal, type SessionRefusal } from './console-auth.ts';
import { HttpErrors } from '../errors.ts';
import { routeAccess } from './public-routes.ts';
import { hookList } from '../route-hooks.ts';
import type { Mode } from '../../domain/mode.ts';

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

const refusal = (r: SessionRefusal) =>
  r.why === 'no_console_header'
    ? HttpErrors.consoleHeaderMissing()
    : r.why === 'ended'
      ? HttpErrors.sessionEnded()
      : HttpErrors.userOfOtherNetwork(r.env, r.mode);

export function installAuth(app: FastifyInstance, keys: KeyStore, mode: Mode): void {
  app.decorateRequest('apiKey', null);
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);

  async function authenticate(request: FastifyRequest) {
    const header = request.headers.apikey;
    const secret = Array.isArray(header) ? header[0] : header;
    if (!secret) {
      const session = await sessionPrincipal(request);
      if (!session) throw HttpErrors.missingKey();
      if (!session.ok) throw refusal(session);
      request.apiKey = session.apiKey;
      return;
    }
    const key = await keys.verify(secret);
    if (!key) throw HttpErrors.unknownKey();
    if (key.env !== mode) throw HttpErrors.keyOfOtherNetwork(key.env, mode);
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

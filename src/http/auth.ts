/** The apikey header, checked against hashed keys, before any body is read. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKey, KeyStore } from '../store/keys.ts';
import { sessionPrincipal } from './console-auth.ts';
import { sendError } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: ApiKey | null;
  }
}

export function installAuth(app: FastifyInstance, keys: KeyStore, mode: 'sandbox' | 'production'): void {
  app.decorateRequest('apiKey', null);
  app.addHook('onRequest', async (request: FastifyRequest, reply) => {
    if (!request.url.startsWith('/v1/') && request.url !== '/v1') return;
    const header = request.headers.apikey;
    const secret = Array.isArray(header) ? header[0] : header;
    if (!secret) {
      // People: the console's session cookie (console-auth.ts).
      const person = await sessionPrincipal(request);
      if (!person) return sendError(reply, request, 401, 'UNAUTHORIZED', 'Missing apikey header');
      if (!person.ok) return sendError(reply, request, 401, 'UNAUTHORIZED', person.message);
      request.apiKey = person.apiKey;
      return;
    }
    const key = await keys.verify(secret);
    if (!key) return sendError(reply, request, 401, 'UNAUTHORIZED', 'Unknown or revoked API key');
    if (key.env !== mode) {
      return sendError(reply, request, 401, 'UNAUTHORIZED', `This is a ${key.env} key; this server serves the ${mode} network`);
    }
    request.apiKey = key;
  });
}

/**
 * GET /console: the front-desk console, static HTML, CSS and JS served from src/http/console/.
 * Nothing is loaded from elsewhere, and the CSP says so: scripts, styles and calls go to this server only.
 */
import { fileURLToPath } from 'node:url';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { US_STATE_CODES } from '../../domain/us-states.ts';

const ROOT = fileURLToPath(new URL('../console/', import.meta.url));

export async function registerConsole(app: FastifyInstance): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          'default-src': ["'self'"],
          'script-src': ["'self'"],
          'style-src': ["'self'"],
          'img-src': ["'self'", 'data:'],
          'connect-src': ["'self'"],
          'font-src': ["'self'"],
          'object-src': ["'none'"],
          'base-uri': ["'none'"],
          'form-action': ["'self'"],
          'frame-ancestors': ["'none'"],
        },
      },
      // The API key lives in this page's sessionStorage: no referrer leaves it, nothing frames it.
      referrerPolicy: { policy: 'no-referrer' },
    });
    await scope.register(fastifyStatic, {
      root: ROOT,
      prefix: '/console/',
      decorateReply: false,
      index: 'index.html',
      cacheControl: true,
      maxAge: 0,
    });
    scope.get('/console', { schema: { hide: true } }, (_request, reply) => reply.redirect('/console/'));
    // The form's State list: the server's own, so the page keeps no copy.
    scope.get('/console/us-states.json', { schema: { hide: true } }, () => US_STATE_CODES);
  });
}

/**
 * GET /docs: Swagger UI served from the package's own files (no CDN), "try it" against this
 * server. Helmet's headers apply to these pages only; the JSON API sets its own fixed headers.
 *
 * @fastify/swagger-ui (with @fastify/static and yaml) loads at the first request under /docs, not at
 * start (about 6 % of start-up's CPU): GET /docs and /docs/* hand the request to a small Fastify
 * instance of its own that serves Swagger UI's routes and reads this server's document.
 */
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const DOCS_PREFIX = '/docs';

/** Swagger UI's options (its routes, under DOCS_PREFIX, are served by the inner instance). */
const UI_OPTIONS = {
  routePrefix: DOCS_PREFIX,
  uiConfig: {
    // The key stays in the page's memory only: never written to localStorage, where any script on this origin could read it later.
    persistAuthorization: false,
    tryItOutEnabled: true,
    displayRequestDuration: true,
    displayOperationId: true,
    docExpansion: 'list' as const,
    defaultModelsExpandDepth: 0,
  },
  theme: { title: 'Coverage verification API' },
};

/** Headers of the inner answer that belong to its own connection, not to the one answered here. */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date', 'content-length']);

async function swaggerUiServer(app: FastifyInstance): Promise<FastifyInstance> {
  const [{ default: Fastify }, { default: fp }, { default: swaggerUi }] = await Promise.all([
    import('fastify'),
    import('fastify-plugin'),
    import('@fastify/swagger-ui'),
  ]);
  const inner = Fastify({ logger: false });
  // Swagger UI reads the document through `swagger()` and wants @fastify/swagger registered: the document is this server's.
  await inner.register(
    fp(
      async (instance) => {
        instance.decorate('swagger', app.swagger.bind(app));
      },
      { name: '@fastify/swagger' },
    ),
  );
  await inner.register(swaggerUi, UI_OPTIONS);
  await inner.ready();
  return inner;
}

export async function registerDocsPage(app: FastifyInstance): Promise<void> {
  let ui: Promise<FastifyInstance> | undefined;
  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    ui ??= swaggerUiServer(app).catch((err: unknown) => {
      ui = undefined;
      throw err;
    });
    const res = await (await ui).inject({ method: 'GET', url: request.raw.url ?? request.url, headers: request.headers });
    if (res.statusCode === 404) return reply.callNotFound();
    for (const [name, value] of Object.entries(res.headers)) if (value !== undefined && !HOP_HEADERS.has(name)) reply.header(name, value);
    return reply.code(res.statusCode).send(res.rawPayload.length > 0 ? res.rawPayload : undefined);
  };
  await app.register(async (docs) => {
    await docs.register(helmet, {
      contentSecurityPolicy: {
        directives: {
          // Swagger UI's scripts are files under /docs/static: 'self' is all they need, no inline script.
          'script-src': ["'self'"],
          // React sets style attributes; the stylesheets are local files.
          'style-src': ["'self'", "'unsafe-inline'"],
          'img-src': ["'self'", 'data:'],
          'font-src': ["'self'", 'data:'],
          'connect-src': ["'self'"],
          // The service is often run over plain http inside a network or on localhost.
          'upgrade-insecure-requests': null,
        },
      },
    });
    docs.get(DOCS_PREFIX, { schema: { hide: true } }, serve);
    docs.get(`${DOCS_PREFIX}/*`, { schema: { hide: true } }, serve);
  });
}

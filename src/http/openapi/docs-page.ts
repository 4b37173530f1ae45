/**
 * GET /docs: Swagger UI served from the package's own files (no CDN), "try it" against this
 * server. Helmet's headers apply to these pages only; the JSON API sets its own fixed headers.
 */
import helmet from '@fastify/helmet';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export async function registerDocsPage(app: FastifyInstance): Promise<void> {
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
    await docs.register(swaggerUi, {
      routePrefix: '/docs',
      uiConfig: {
        // The key stays in the page's memory only: never written to localStorage, where any script on this origin could read it later.
        persistAuthorization: false,
        tryItOutEnabled: true,
        displayRequestDuration: true,
        displayOperationId: true,
        docExpansion: 'list',
        defaultModelsExpandDepth: 0,
      },
      theme: { title: 'Coverage verification API' },
    });
  });
}

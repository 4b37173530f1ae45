/** GET /openapi.json: the OpenAPI 3.1 document, generated from the route schemas; GET /docs renders it. */
import { readFileSync } from 'node:fs';
import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { registerDocsPage } from './docs-page.ts';
import { decorateDocument, documentHeader, routeTransform, type DocumentObject, type RouteSchema } from './openapi-document.ts';
import type { Mode } from '../../domain/mode.ts';

export const { version: SERVICE_VERSION } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };

/** Call before the routes are added: the document is collected from the routes registered after it. */
export async function registerOpenApi(app: FastifyInstance, options: { mode: Mode }): Promise<void> {
  const swaggerOptions: FastifyDynamicSwaggerOptions = {
    openapi: documentHeader({ mode: options.mode, version: SERVICE_VERSION }) as FastifyDynamicSwaggerOptions['openapi'],
    // Name components by $id, and leave the schema objects as they are (the default resolver adds a title to them).
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transform: ({ schema, url }) => ({ schema: routeTransform(schema as RouteSchema | undefined, url) as FastifySchema, url }),
    transformObject: (document) => ('openapiObject' in document ? decorateDocument(document.openapiObject as DocumentObject) : document.swaggerObject),
  };
  await app.register(swagger, swaggerOptions);
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await registerDocsPage(app);
}

/**
 * Every /v1 route also answers with one trailing slash (/v1/scan/ as /v1/scan): the twin is
 * registered hidden from the OpenAPI document, and runs the same hooks, validation and handler.
 * Fastify's ignoreTrailingSlash would do this for every route, but it makes /console and
 * /console/ one route, and the console's redirect from one to the other would loop.
 */
import type { FastifyInstance, FastifySchema } from 'fastify';
// For the `hide` schema keyword's type.
import type {} from '@fastify/swagger';

const API_PREFIX = '/v1/';

/** Call before the routes are added. */
export function installTrailingSlashTwins(app: FastifyInstance): void {
  app.addHook('onRoute', function (route) {
    const url = route.url ?? '';
    // HEAD twins come with the GET twins.
    if (!url.startsWith(API_PREFIX) || url.endsWith('/') || route.method === 'HEAD') return;
    const { url: _url, path: _path, prefix: _prefix, ...options } = route as typeof route & { path?: string; prefix?: string; routePath?: string };
    const schema: FastifySchema & { hide?: boolean; operationId?: string } = { ...(route.schema ?? {}), hide: true };
    delete schema.operationId;
    this.route({ ...options, url: `${(route as { routePath?: string }).routePath ?? url}/`, schema });
  });
}

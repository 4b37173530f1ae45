/**
 * /v1/scan/ is /v1/scan: one trailing slash after an API path is dropped before routing, so each
 * route has one pattern, one rate-limit bucket and one metrics label whichever way it is written.
 * Fastify's ignoreTrailingSlash would do it for every route, but it makes /console and /console/
 * one route, and the console's redirect from one to the other would loop. Access is still decided
 * by the route matched after this (auth/auth.ts), never here.
 */
import type { IncomingMessage } from 'node:http';

const SLASH = 47;

/** For fastify's rewriteUrl: the request target with one trailing slash of a /v1/ path removed. */
export function dropApiTrailingSlash(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  const end = query < 0 ? url.length : query;
  if (end <= 4 || url.charCodeAt(end - 1) !== SLASH || url.charCodeAt(end - 2) === SLASH || !url.startsWith('/v1/')) return url;
  return url.slice(0, end - 1) + url.slice(end);
}

/**
 * The one list of routes anyone may call without an API key or console session. Access is decided
 * per route pattern when a route is registered (auth.ts), never from the URL a client typed: every
 * route not listed here needs a key, including routes added later.
 *
 * 'page' routes are HTML and assets whose security headers helmet sets (docs-page.ts, console.ts);
 * every other route gets the JSON API's fixed headers (api-headers.ts).
 */

export type RouteKind = 'page' | 'api';

const PUBLIC_ROUTES: ReadonlyMap<string, RouteKind> = new Map<string, RouteKind>([
  // Where to go from the bare address (routes/root.ts).
  ['/', 'api'],
  // Probes and Prometheus: no member data, and scrapers and load balancers carry no key.
  ['/healthz', 'api'],
  ['/readyz', 'api'],
  ['/metrics', 'api'],
  // The API description: the same for everyone.
  ['/openapi.json', 'api'],
  // The FHIR CapabilityStatement (routes/fhir.ts): what the FHIR door serves and how to authenticate.
  ['/fhir/r4/metadata', 'api'],
  // The console's static files; its data comes from /v1 under a key or a signed-in session.
  ['/console', 'page'],
  ['/console/*', 'page'],
  // The form's state list, written by the server (routes/console.ts).
  ['/console/us-states.json', 'page'],
  // Console sign-in, who-am-I and sign-out check the session cookie themselves.
  ['/console/session', 'api'],
  // Sign-in through the organization's identity provider (routes/console-oidc.ts): the way in, and back.
  ['/console/oidc/start', 'api'],
  ['/console/oidc/callback', 'api'],
]);

/** Swagger UI's page, assets and copies of the document (docs-page.ts registers them under this prefix). */
const DOCS_PREFIX = '/docs';

export interface RouteAccess {
  public: boolean;
  kind: RouteKind;
}

/** How a route pattern (as registered, e.g. /v1/batches/:id) is reached. */
export function routeAccess(pattern: string): RouteAccess {
  if (pattern === DOCS_PREFIX || pattern.startsWith(`${DOCS_PREFIX}/`)) return { public: true, kind: 'page' };
  const kind = PUBLIC_ROUTES.get(pattern);
  return kind ? { public: true, kind } : { public: false, kind: 'api' };
}

/**
 * Finding 1 of issue 17: auth was decided from the raw URL (`/v1/` prefix) while routing used the
 * decoded path, so `/%761/estimate` or an absolute-form target ran checks without a key. For every
 * route the app serves (taken from the app itself, so a new route is covered without editing this
 * file), every spelling of its path that a client can put on the wire must answer 401 or 404
 * without a key, never data and never 5xx; with a key, the canonical forms work.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { API_HEADERS } from '../../src/http/api-headers.ts';
import type { RegisteredRoute } from '../../src/http/auth/auth.ts';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';
import { AVERY as FHIR_AVERY, eligibilityRequest } from '../fhir/fixtures.ts';
import { rawRequest, type RawResponse } from '../support/raw-http.ts';

let server: TestServer;
let port: number;
let batchId: string;
/** A monitor, a webhook and one of its deliveries, and a remittance, for the routes under their paths. */
const ids = { monitor: '', webhook: '', delivery: '', remittance: '', gfe: '' };

/** Public routes, decided deliberately (src/http/auth/public-routes.ts); Swagger UI's routes are all under /docs. */
const EXPECTED_PUBLIC = new Set([
  '/',
  '/healthz',
  '/readyz',
  '/metrics',
  '/openapi.json',
  '/fhir/r4/metadata',
  '/console',
  '/console/*',
  '/console/session',
  '/console/us-states.json',
  '/console/oidc/start',
  '/console/oidc/callback',
]);
const isDocs = (url: string) => url === '/docs' || url.startsWith('/docs/');

const NPI = '1234567893';
const AVERY = { member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14' };
const ESTIMATE = { member_id: '10010MHNA', ...AVERY, provider_npi: NPI, provider_session_cost: '15000', in_network: true };
/** Bodies that succeed with a key: were any spelling to skip auth, it would answer 2xx with member data. */
const BODIES: Record<string, unknown> = {
  '/v1/estimate': ESTIMATE,
  '/v1/discover': { ...AVERY, zip: '', payer_id: 'SBX-EVERGREEN' },
  '/v1/scan': { ...AVERY, zip: '10001' },
  '/fhir/r4/CoverageEligibilityRequest/$submit': eligibilityRequest(FHIR_AVERY, { price: 150 }),
  '/v1/medicaid': { member_id: '10070MHOMCD', member_first_name: 'Luis', member_last_name: 'Herrera', member_dob: '1999-11-11', patient_state: 'NY' },
  '/v1/batches': { checks: [{ endpoint: 'estimate', request: ESTIMATE }] },
  '/v1/monitors': { ...ESTIMATE, schedule: { every_days: 30 } },
  // TEST-NET-3: public in form; nothing is listening, and that is fine here.
  '/v1/webhooks': { url: 'https://203.0.113.10/hook', events: ['coverage.changed'] },
};
const bodyFor = (pattern: string, method: string) =>
  method === 'GET' || method === 'HEAD' || method === 'DELETE' ? undefined : JSON.stringify(BODIES[pattern.replace(/\/$/, '')] ?? {});

/** A concrete path for a route pattern: parameters become the id of a batch (monitor, webhook, payer) that exists, wildcards a file. */
const concrete = (pattern: string) =>
  pattern
    .replace(/:delivery_id/g, ids.delivery)
    .replace(
      /:[A-Za-z_]+/g,
      pattern.startsWith('/v1/monitors')
        ? ids.monitor
        : pattern.startsWith('/v1/webhooks')
          ? ids.webhook
          : pattern.startsWith('/v1/payers')
            ? 'SBX-EVERGREEN'
            : pattern.startsWith('/v1/remittances')
              ? ids.remittance
              : pattern.startsWith('/v1/good-faith-estimates')
                ? ids.gfe
                : batchId,
    )
    .replace(/\*$/, 'index.html');

const hex = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
const mapSegments = (path: string, f: (segment: string) => string) =>
  path
    .split('/')
    .map((s) => (s ? f(s) : s))
    .join('/');
const encodeAll = (path: string) => mapSegments(path, (s) => [...s].map(hex).join(''));

/** Every other way of writing `path` on the wire, by name. */
function variants(path: string): [string, string][] {
  const rest = path.slice(1);
  const first = rest.split('/')[0] ?? '';
  const afterFirst = rest.slice(first.length);
  const origin = `http://127.0.0.1:${port}`;
  return [
    ['first character of each segment percent-encoded', mapSegments(path, (s) => hex(s[0]!) + s.slice(1))],
    ['lower-case hex escape', mapSegments(path, (s) => hex(s[0]!).toLowerCase() + s.slice(1))],
    ['every character percent-encoded', encodeAll(path)],
    ['double-encoded', encodeAll(path).replaceAll('%', '%25')],
    ['slashes percent-encoded', `/${rest.replaceAll('/', '%2F')}`],
    ['upper case', path.toUpperCase()],
    ['mixed case', [...path].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join('')],
    ['dot segment back to itself', `/${first}/..${path}`],
    ['dot segment from elsewhere', `/x/..${path}`],
    ['encoded dot segment', `/x/%2e%2e${path}`],
    ['single-dot segments', `/.${path.replaceAll('/', '/./').slice(2)}`],
    ['leading duplicate slash', `/${path}`],
    ['inner duplicate slash', `/${first}/${afterFirst}`],
    ['two trailing slashes', `${path}//`],
    ['trailing dot segment', `${path}/.`],
    ['backslashes', path.replaceAll('/', '\\')],
    ['encoded NUL', `${path}%00`],
    ['matrix parameter with the key', `${path};apikey=${TEST_KEY}`],
    ['the key in the query string', `${path}?apikey=${TEST_KEY}`],
    ['absolute-form', `${origin}${path}`],
    ['absolute-form, percent-encoded', `${origin}${mapSegments(path, (s) => hex(s[0]!) + s.slice(1))}`],
    ['absolute-form, upper-case scheme and another host', `HTTP://evil.example${path}`],
  ];
}

const json = (res: RawResponse): any => {
  try {
    return JSON.parse(res.body);
  } catch {
    return null;
  }
};

/** Refused without a key, or not a route at all; nothing else is acceptable. */
function assertRefused(res: RawResponse, what: string): void {
  const fromApp = res.headers['x-request-id'] !== undefined;
  if (!fromApp) {
    // Node's HTTP parser refused the request line itself: no route ran.
    assert.equal(res.status, 400, `${what}: ${res.status}`);
    return;
  }
  const body = json(res);
  // The FHIR door answers in FHIR: an OperationOutcome with our error_code in its issue's details.
  const fhir = body?.resourceType === 'OperationOutcome';
  const code = fhir ? body.issue?.[0]?.details?.coding?.[0]?.code : body?.error_code;
  const refused =
    (res.status === 401 && (code === 'UNAUTHORIZED' || res.body === '')) ||
    (res.status === 404 && (code === 'NOT_FOUND' || res.body === '')) ||
    (res.status === 400 && (body?.message === 'The URL is not valid' || res.body === '')) ||
    res.status === 414;
  assert.ok(refused, `${what}: answered ${res.status} ${res.body.slice(0, 160)}`);
  if (body) assert.deepEqual(Object.keys(body).sort(), fhir ? ['issue', 'resourceType'] : ['error_code', 'message', 'request_id'], `${what}: error shape only`);
  for (const [name, value] of Object.entries(API_HEADERS)) assert.equal(res.headers[name], value, `${what}: ${name}`);
}

let routes: RegisteredRoute[];

before(async () => {
  server = await startTestServer({ env: { COVERAGE_BATCH_CREATE_PER_MINUTE: '100000' } });
  port = Number(new URL(server.url).port);
  routes = [...server.runtime.app.registeredRoutes];
  const created = await server.post('/v1/batches', BODIES['/v1/batches']);
  assert.equal(created.status, 202);
  batchId = created.body.id;
  ids.monitor = (await server.post('/v1/monitors', BODIES['/v1/monitors'])).body.id;
  ids.webhook = (await server.post('/v1/webhooks', BODIES['/v1/webhooks'])).body.id;
  ids.delivery = (await server.post(`/v1/webhooks/${ids.webhook}/test`, undefined)).body.delivery.id;
  const remittance = readFileSync(new URL('../../examples/remittance.835', import.meta.url), 'utf8');
  ids.remittance = (await server.post('/v1/remittances', remittance, { 'content-type': 'application/edi-x12' })).body.id;
  const gfe = JSON.parse(readFileSync(new URL('../../examples/good-faith-estimate.json', import.meta.url), 'utf8'));
  const made = await server.post('/v1/good-faith-estimates', gfe);
  assert.equal(made.status, 201, JSON.stringify(made.body));
  ids.gfe = made.body.id;
});
after(() => server.close());

test('the app lists its routes, and only the deliberate ones are public', () => {
  const patterns = new Set(routes.map((r) => r.url));
  for (const expected of [
    '/v1/estimate',
    '/v1/discover',
    '/v1/scan',
    '/v1/medicaid',
    '/v1/payers',
    '/v1/batches',
    '/v1/batches/:id',
    '/v1/batches/:id/results',
  ]) {
    assert.ok(patterns.has(expected), `${expected} is served`);
  }
  const publicPatterns = new Set(routes.filter((r) => r.public).map((r) => r.url));
  for (const url of publicPatterns) assert.ok(EXPECTED_PUBLIC.has(url) || isDocs(url), `${url} is public only if listed on purpose`);
  for (const url of patterns) if (url.startsWith('/v1')) assert.ok(!publicPatterns.has(url), `${url} needs a key`);
});

describe('without a key', () => {
  test('no spelling of any protected route reaches it', async () => {
    let sent = 0;
    for (const route of routes.filter((r) => !r.public)) {
      const path = concrete(route.url);
      const body = bodyFor(route.url, route.method);
      for (const [name, target] of [['canonical', path], ...variants(path)] as [string, string][]) {
        const res = await rawRequest(port, route.method, target, body === undefined ? {} : { body });
        assertRefused(res, `${route.method} ${route.url} as ${name} (${target})`);
        sent++;
      }
    }
    assert.ok(sent > 200, `${sent} requests`);
  });

  test('the spellings of the first finding answer 401 with the API headers, not coverage', async () => {
    const estimate = JSON.stringify(ESTIMATE);
    const batch = JSON.stringify(BODIES['/v1/batches']);
    for (const [method, target, body] of [
      ['POST', '/%761/estimate', estimate],
      ['POST', '/%76%31/estimate', estimate],
      ['POST', `http://127.0.0.1:${port}/v1/estimate`, estimate],
      ['POST', '/v1/%65stimate', estimate],
      ['POST', '/v1/estimate/', estimate],
      ['POST', '/%761/batches', batch],
      ['GET', `/%761/batches/${batchId}`, undefined],
    ] as const) {
      const res = await rawRequest(port, method, target, body ? { body } : {});
      assert.equal(res.status, 401, `${target}: ${res.body.slice(0, 120)}`);
      assert.equal(json(res)?.error_code, 'UNAUTHORIZED');
      for (const [name, value] of Object.entries(API_HEADERS)) assert.equal(res.headers[name], value, `${target}: ${name}`);
    }
  });

  test('public routes answer every spelling without a server error', async () => {
    for (const route of routes.filter((r) => r.public)) {
      const path = concrete(route.url);
      for (const [name, target] of [['canonical', path], ...variants(path)] as [string, string][]) {
        const res = await rawRequest(port, route.method, target, route.method === 'POST' ? { body: '{}' } : {});
        assert.ok(res.status < 500, `${route.method} ${route.url} as ${name} (${target}): ${res.status}`);
      }
    }
  });

  test('unmatched paths answer 404 in the error shape, with the API headers and a bounded message', async () => {
    for (const [method, target] of [
      ['GET', '/v1/nothing-here'],
      ['POST', '/v2/estimate'],
      ['POST', '/%761/nothing'],
      ['GET', `/${'a'.repeat(4000)}`],
      ['OPTIONS', '/v1/estimate'],
      ['GET', '/%ZZ'],
    ] as const) {
      const res = await rawRequest(port, method, target);
      assertRefused(res, `${method} ${target.slice(0, 40)}`);
      assert.ok(res.body.length < 400, `${target.slice(0, 40)}: ${res.body.length} bytes`);
    }
  });
});

describe('with a key', () => {
  const key = { apikey: TEST_KEY };

  test('the canonical form and the trailing slash of every protected route reach it', async () => {
    // Deleting a monitor or webhook ends it: those routes go last.
    const last = (r: RegisteredRoute) => (r.method === 'DELETE' ? 1 : 0);
    for (const route of routes.filter((r) => !r.public).sort((a, b) => last(a) - last(b))) {
      const path = concrete(route.url);
      const body = bodyFor(route.url, route.method);
      const res = await rawRequest(port, route.method, path, { headers: key, ...(body === undefined ? {} : { body }) });
      assert.ok(res.status !== 401 && res.status !== 404 && res.status < 500, `${route.method} ${route.url}: ${res.status} ${res.body.slice(0, 160)}`);
      if (route.url.replace(/\/$/, '') in BODIES || route.method === 'GET' || route.method === 'HEAD') {
        assert.ok(res.status >= 200 && res.status < 300, `${route.method} ${route.url}: ${res.status} ${res.body.slice(0, 160)}`);
      }
      for (const [name, value] of Object.entries(API_HEADERS)) assert.equal(res.headers[name], value, `${route.url}: ${name}`);
    }
  });

  test('every check endpoint and the batch routes accept one trailing slash, and the document lists them once', async () => {
    for (const path of ['/v1/estimate', '/v1/discover', '/v1/scan', '/v1/medicaid']) {
      const res = await server.post(`${path}/`, BODIES[path]);
      assert.equal(res.status, 200, `${path}/: ${JSON.stringify(res.body).slice(0, 160)}`);
    }
    assert.equal((await server.post('/v1/batches/', BODIES['/v1/batches'])).status, 202);
    assert.equal((await server.get(`/v1/batches/${batchId}/`)).status, 200);
    assert.equal((await server.get(`/v1/batches/${batchId}/results/`)).status, 200);
    assert.equal((await server.get('/v1/payers/')).status, 200);
    const doc = (await server.get('/openapi.json')).body;
    const paths = Object.keys(doc.paths);
    assert.ok(paths.includes('/v1/scan') && paths.includes('/v1/batches/{id}'));
    assert.deepEqual(
      paths.filter((p) => p.endsWith('/')),
      [],
      'no trailing-slash twins in the document',
    );
    const operationIds = Object.values(doc.paths).flatMap((ops: any) => Object.values(ops).map((op: any) => op.operationId));
    assert.equal(new Set(operationIds).size, operationIds.length, 'operation ids are unique');
  });

  test('a percent-encoded spelling is the same route: counted and audited like the canonical one', async () => {
    const before = await server.runtime.db.kysely
      .selectFrom('audit_events')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await rawRequest(port, 'POST', '/%761/estimate', { headers: key, body: JSON.stringify(ESTIMATE) });
    assert.equal(res.status, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    await server.runtime.audit.flush();
    const rows = await server.runtime.db.kysely.selectFrom('audit_events').selectAll().where('request_id', '=', res.headers['x-request-id']!).execute();
    assert.equal(rows.length, 1, `audited (had ${before.n} records before)`);
    assert.equal(rows[0]!.endpoint, 'estimate');
  });

  test('every spelling of POST /v1/batches draws on the one batch-creation budget of the key', async () => {
    const small = await startTestServer({ env: { COVERAGE_BATCH_CREATE_PER_MINUTE: '2' } });
    try {
      const smallPort = Number(new URL(small.url).port);
      const body = JSON.stringify(BODIES['/v1/batches']);
      const statuses: number[] = [];
      for (const target of ['/v1/batches', '/v1/batches/', '/%761/batches']) {
        statuses.push((await rawRequest(smallPort, 'POST', target, { headers: key, body })).status);
      }
      // The third is refused whichever spelling it uses: one route, one bucket.
      assert.deepEqual(statuses, [202, 202, 429]);
    } finally {
      await small.close();
    }
  });

  test('every spelling of a check counts against the same per-key rate limit', async () => {
    const { secret } = await server.runtime.keys.create({ name: 'three a minute', env: 'sandbox', rate_limit_per_minute: 3 });
    const body = JSON.stringify(ESTIMATE);
    const targets = ['/%761/estimate', `http://127.0.0.1:${port}/v1/estimate`, '/v1/estimate/', '/v1/%65stimate'];
    const statuses: number[] = [];
    for (const target of targets) statuses.push((await rawRequest(port, 'POST', target, { headers: { apikey: secret }, body })).status);
    assert.deepEqual(statuses, [200, 200, 200, 429]);
  });
});

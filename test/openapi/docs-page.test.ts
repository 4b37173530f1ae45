/** GET /docs: Swagger UI from local files, helmet's headers on the pages only, a CSP that lets its scripts run. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let html: string;
let docsHeaders: Headers;
before(async () => {
  server = await startTestServer();
  const res = await fetch(`${server.url}/docs`);
  assert.equal(res.status, 200);
  docsHeaders = res.headers;
  html = await res.text();
});
after(() => server.close());

const csp = (header: string | null) =>
  new Map(
    (header ?? '')
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/);
        return [name!, values] as const;
      }),
  );

test('the page and every script and stylesheet it loads come from this server', async () => {
  assert.match(docsHeaders.get('content-type') ?? '', /text\/html/);
  const assets = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="([^"]+)"/g)].map((m) => m[1]!);
  assert.ok(
    assets.some((a) => a.endsWith('swagger-ui-bundle.js')),
    html,
  );
  for (const asset of assets) {
    assert.doesNotMatch(asset, /^(https?:)?\/\//, `${asset} is not local`);
    const res = await fetch(new URL(asset, `${server.url}/docs`));
    assert.equal(res.status, 200, asset);
    assert.match(res.headers.get('content-type') ?? '', /javascript|css|image/, asset);
    await res.arrayBuffer();
  }
  assert.doesNotMatch(html.replace(/<script[^>]*\ssrc="[^"]+"[^>]*>\s*<\/script>/g, ''), /<script/, 'no inline script');
});

test("the CSP allows this server's scripts and nothing inline or remote", () => {
  const policy = csp(docsHeaders.get('content-security-policy'));
  assert.deepEqual(policy.get('script-src'), ["'self'"]);
  assert.deepEqual(policy.get('script-src-attr'), ["'none'"]);
  assert.deepEqual(policy.get('connect-src'), ["'self'"], '"try it" calls this server only');
  assert.deepEqual(policy.get('default-src'), ["'self'"]);
  assert.deepEqual(policy.get('object-src'), ["'none'"]);
  assert.equal(policy.has('upgrade-insecure-requests'), false, 'plain http on localhost keeps working');
});

test("helmet's headers are on the pages and their assets", async () => {
  for (const headers of [docsHeaders, (await fetch(`${server.url}/docs/static/swagger-initializer.js`)).headers]) {
    assert.equal(headers.get('x-content-type-options'), 'nosniff');
    assert.equal(headers.get('x-frame-options'), 'SAMEORIGIN');
    assert.ok(headers.get('strict-transport-security'));
    assert.ok(headers.get('cross-origin-opener-policy'));
  }
});

test("the JSON API and the document keep their own headers, not helmet's", async () => {
  const api = await server.get('/v1/sandbox/members');
  assert.equal(api.headers.get('content-security-policy'), "default-src 'none'; frame-ancestors 'none'");
  const doc = await fetch(`${server.url}/openapi.json`);
  await doc.arrayBuffer();
  for (const headers of [api.headers, doc.headers]) {
    assert.equal(headers.get('x-dns-prefetch-control'), null);
    assert.equal(headers.get('origin-agent-cluster'), null);
    assert.equal(headers.get('strict-transport-security'), null);
  }
});

test('the UI loads the served document, with try-it on and the key not kept across reloads (test/security/docs-key-storage.test.ts)', async () => {
  const init = await (await fetch(`${server.url}/docs/static/swagger-initializer.js`)).text();
  assert.match(init, /"persistAuthorization":\s*false/);
  assert.match(init, /"tryItOutEnabled":\s*true/);
  const [ui, served] = await Promise.all([fetch(`${server.url}/docs/json`), fetch(`${server.url}/openapi.json`)]);
  assert.deepEqual(await ui.json(), await served.json());
});

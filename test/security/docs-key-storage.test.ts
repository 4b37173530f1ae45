/**
 * Issue 17 finding 10(d): Swagger UI at /docs kept the API key a person typed into "Authorize" in
 * localStorage (persistAuthorization), where it outlived the tab and any script on the origin could
 * read it. The configuration the page actually loads must not persist it.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('the Swagger UI configuration served to the browser does not persist the key', async () => {
  const page = await (await fetch(`${server.url}/docs`)).text();
  const initializer = [...page.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!).find((src) => src.endsWith('swagger-initializer.js'));
  assert.ok(initializer, 'the page loads its configuration script');
  const res = await fetch(new URL(initializer, `${server.url}/docs/`));
  assert.equal(res.status, 200);
  const script = await res.text();
  const literal = /const config = (\{.*\})\s*$/m.exec(script)?.[1];
  assert.ok(literal, 'the script carries the UI configuration');
  const config = JSON.parse(literal) as Record<string, unknown>;
  assert.equal(config.persistAuthorization, false);
  assert.doesNotMatch(script, /localStorage/);
});

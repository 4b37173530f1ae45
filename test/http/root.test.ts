/** GET /: a browser lands on the console; an API client learns where the console, docs and OpenAPI are. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('a browser asking for / is sent to the console, without any key', async () => {
  const res = await fetch(`${server.url}/`, { headers: { accept: BROWSER_ACCEPT }, redirect: 'manual' });
  assert.equal(res.status, 302);
  assert.equal(res.headers.get('location'), '/console/');
  const followed = await fetch(`${server.url}/`, { headers: { accept: BROWSER_ACCEPT } });
  assert.equal(followed.status, 200);
  assert.equal(new URL(followed.url).pathname, '/console/');
  assert.match(await followed.text(), /<title>Coverage console<\/title>/);
});

test('an API client asking for / gets the addresses of the console, the docs and the OpenAPI document, and each answers', async () => {
  const res = await fetch(`${server.url}/`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  const index = (await res.json()) as Record<string, string>;
  assert.equal(index.console, '/console/');
  assert.equal(index.docs, '/docs');
  assert.equal(index.openapi, '/openapi.json');
  for (const path of [index.console, index.docs, index.openapi]) {
    const page = await fetch(`${server.url}${path}`);
    assert.equal(page.status, 200, path);
  }
});

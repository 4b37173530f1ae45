/** GET /console: static files of this server under a strict CSP, nothing from elsewhere, helmet on the page only. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { US_STATE_CODES } from '../../src/domain/us-states.ts';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';

const ASSETS = fileURLToPath(new URL('../../src/http/console/', import.meta.url));
let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('/console redirects to the page; the page and its files are served with a CSP that allows this server only', async () => {
  const redirect = await fetch(`${server.url}/console`, { redirect: 'manual' });
  assert.equal(redirect.status, 302);
  assert.equal(redirect.headers.get('location'), '/console/');
  const files: [string, string][] = [
    ['/console/', 'text/html'],
    ['/console/console.js', 'javascript'],
    ['/console/console.css', 'text/css'],
    ['/console/schedule-template.csv', 'text/csv'],
  ];
  for (const [path, type] of files) {
    const res = await fetch(`${server.url}${path}`);
    assert.equal(res.status, 200, path);
    assert.match(res.headers.get('content-type') ?? '', new RegExp(type), path);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /style-src 'self'(;|$)/);
    assert.match(csp, /connect-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
  }
  assert.equal((await fetch(`${server.url}/console/nope.js`)).status, 404);
});

test("the form's state list is the server's own (src/domain/us-states.ts), served under the page's CSP", async () => {
  const res = await fetch(`${server.url}/console/us-states.json`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  assert.match(res.headers.get('content-security-policy') ?? '', /connect-src 'self'/);
  assert.deepEqual(await res.json(), US_STATE_CODES);
  assert.match(readFileSync(`${ASSETS}console.js`, 'utf8'), /fetch\('\/console\/us-states\.json'\)/);
});

test('the files name no other origin and hold no inline script or style', () => {
  for (const file of readdirSync(ASSETS)) {
    const text = readFileSync(`${ASSETS}${file}`, 'utf8');
    assert.doesNotMatch(text, /https?:\/\//, `${file} refers to another origin`);
    if (file.endsWith('.html')) {
      assert.doesNotMatch(text, /<script(?![^>]*\bsrc=)[^>]*>/, 'inline script');
      assert.doesNotMatch(text, /<style|\sstyle=|\son[a-z]+=/i, 'inline style or handler');
      for (const [, id] of text.matchAll(/<(?:input|select)[^>]*\bid="([^"]+)"/g)) {
        assert.match(text, new RegExp(`<label[^>]*for="${id}"`), `input ${id} has a label`);
      }
    }
  }
});

test('the JSON API keeps its own headers: no helmet there', async () => {
  const res = await fetch(`${server.url}/v1/payers`, { headers: { apikey: TEST_KEY } });
  assert.equal(res.headers.get('content-security-policy'), "default-src 'none'; frame-ancestors 'none'");
  assert.equal(res.headers.get('strict-transport-security'), null);
  assert.equal(res.headers.get('x-dns-prefetch-control'), null);
});

/**
 * /docs in a real browser: Swagger UI runs under the page's CSP, "try it" calls the sandbox with
 * the apikey scheme, and the key is not written to storage: a reload forgets it (issue 17 finding
 * 10d). Skips when no Chromium is installed
 * (CHROMIUM_PATH, or chromium on the PATH).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';
import { needsChromium } from '../helpers/needs.ts';

function findChromium(): string | null {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      return execFileSync('which', [name], { encoding: 'utf8' }).trim() || null;
    } catch {
      /* not this one */
    }
  }
  return null;
}

const executablePath = findChromium();
let server: TestServer;
let browser: Browser;

before(async () => {
  if (!executablePath) return;
  server = await startTestServer();
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('Swagger UI renders under its CSP, tries a call with the apikey, and keeps the key out of storage', { skip: needsChromium(executablePath) }, async () => {
  const page = await browser.newPage();
  page.setDefaultTimeout(15_000);
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
  });

  await page.goto(`${server.url}/docs`);
  await page.waitForSelector('#operations-coverage-estimate');
  for (const id of ['coverage-estimate', 'coverage-discover', 'coverage-scan', 'coverage-medicaid', 'sandbox-sandboxMembers']) {
    assert.equal(await page.locator(`#operations-${id}`).count(), 1, id);
  }

  await page.click('.btn.authorize');
  await page.fill('.modal-ux input[type=text]', TEST_KEY);
  await page.click('.modal-ux .auth-btn-wrapper .authorize');
  await page.click('.modal-ux .btn-done');

  await page.click('#operations-coverage-estimate .opblock-summary');
  await page.click('#operations-coverage-estimate .execute');
  const status = page.locator('#operations-coverage-estimate .live-responses-table tbody .response-col_status').first();
  await status.waitFor();
  assert.equal((await status.textContent())?.trim(), '200');
  const body = await page.locator('#operations-coverage-estimate .live-responses-table .microlight').first().textContent();
  assert.match(body ?? '', /"plan_status": "ACTIVE"/);

  const stored = () => page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie);
  assert.doesNotMatch(await stored(), new RegExp(TEST_KEY), 'the key is in no storage the origin keeps');
  await page.reload();
  await page.waitForSelector('#operations-coverage-estimate');
  assert.doesNotMatch(await stored(), new RegExp(TEST_KEY));
  assert.equal(await page.locator('.btn.authorize.locked').count(), 0, 'after a reload the page is not authorized');

  assert.deepEqual(problems, []);
});

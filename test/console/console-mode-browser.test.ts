/**
 * Sandbox and production look different on every console screen (Debian's Chromium): a sandbox
 * server shows the SANDBOX band on the sign-in and key screens and in every tab, and its title says
 * so; a production server shows no band, and its hints follow production's rules (a blank payer is
 * refused there, so no hint says the sandbox picks one). Skips when /usr/bin/chromium is absent.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Browser, type Page } from 'playwright-core';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';
import { startProduction, type ProductionSetup } from '../helpers/production.ts';
import { needsChromium } from '../helpers/needs.ts';
import { launchChromium } from '../helpers/browser.ts';

const skip = needsChromium();

let sandbox: TestServer;
let production: ProductionSetup;
let browser: Browser;
before(async () => {
  if (skip) return;
  sandbox = await startTestServer();
  production = await startProduction();
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await sandbox?.close();
  await production?.close();
});

const band = (page: Page) => page.locator('#mode-banner');

test('sandbox: the band is on the key screen and on every tab, and the title says SANDBOX', { skip }, async () => {
  const page = await browser.newPage({ viewport: { width: 1200, height: 700 } });
  page.setDefaultTimeout(15_000);
  await page.goto(`${sandbox.url}/console`);
  await band(page).waitFor({ state: 'visible' });
  assert.match((await band(page).textContent()) ?? '', /SANDBOX.*Made-up patients/s);
  assert.match(await page.title(), /^SANDBOX/);
  await page.getByLabel('API key').fill(TEST_KEY);
  await page.getByLabel('API key').press('Enter');
  await page.getByText('in use').waitFor();
  for (const tab of await page.getByRole('tab').all()) {
    await tab.click();
    assert.ok(await band(page).isVisible(), `the band on "${await tab.textContent()}"`);
    const box = await band(page).boundingBox();
    assert.ok(box && box.y <= 1, 'at the top of the screen');
  }
  assert.match((await page.locator('#payer-help').textContent()) ?? '', /blank lets the sandbox pick/);
  await page.close();
});

test('production: no band, and the payer hint says a payer is required', { skip }, async () => {
  const page = await browser.newPage({ viewport: { width: 1200, height: 700 } });
  page.setDefaultTimeout(15_000);
  await page.goto(`${production.server.url}/console`);
  await page.getByText('Sign in to the console').waitFor();
  await page.waitForFunction(() => document.body.dataset.mode === 'production');
  assert.equal(await band(page).isVisible(), false);
  assert.doesNotMatch(await page.title(), /SANDBOX/);
  const hint = (await page.locator('#payer-help').textContent()) ?? '';
  assert.doesNotMatch(hint, /sandbox/i);
  assert.match(hint, /Required/);
  assert.match((await page.locator('#template-link').textContent()) ?? '', /sandbox examples: replace them/);
  await page.close();
});

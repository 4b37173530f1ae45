/**
 * The console's Good Faith Estimates (docs/good-faith-estimate.md): the list, overdue drafts first,
 * and the page printed for the client in plain language (what to expect, the total, the right to
 * dispute). Screenshot: docs/screenshots/good-faith-estimate.png. Skips when /usr/bin/chromium is absent.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser } from 'playwright-core';
import { completeGfe } from '../helpers/gfe-request.ts';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';
import { needsChromium } from '../helpers/needs.ts';
import { launchChromium } from '../helpers/browser.ts';

const skip = needsChromium();
const SHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

let server: TestServer;
let browser: Browser;
before(async () => {
  if (skip) return;
  // The wall clock of the service too: the estimate is dated the day the suite's calendar says.
  server = await startTestServer({ now: () => new Date('2026-06-15T15:00:00Z') });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('the list puts the overdue draft first; the client page says what to expect, the total and the right to dispute, and prints alone', { skip }, async () => {
  const avery = await server.post('/v1/good-faith-estimates', completeGfe());
  assert.equal(avery.status, 201);
  const late = completeGfe();
  late.client = { first_name: 'Jordan', last_name: 'Reyes', dob: '1990-01-01' };
  late.scheduled_on = '2026-06-01';
  late.primary_service!.scheduled_date = '2026-06-10';
  late.period_of_care = { start: '2026-06-10', end: '2026-09-30' };
  assert.equal((await server.post('/v1/good-faith-estimates', late)).status, 201);

  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  page.setDefaultTimeout(15_000);
  await page.goto(`${server.url}/console`);
  await page.getByLabel('API key').fill(TEST_KEY);
  await page.getByLabel('API key').press('Enter');
  await page.locator('#check-form').waitFor();
  await page.getByRole('tab', { name: 'Good Faith Estimates' }).click();
  const rows = page.locator('#gfe-table tbody tr');
  await rows.nth(1).waitFor();
  assert.match(await rows.nth(0).innerText(), /Jordan Reyes\s+June 10, 2026\s+Overdue since June 2, 2026\s+Not given yet\s+\$4,160\.00/);
  assert.match(await rows.nth(1).innerText(), /Avery Walsh\s+July 6, 2026\s+June 18, 2026\s+Not given yet/);
  assert.match(await page.locator('#gfe-status').innerText(), /1 overdue/);

  await rows.nth(0).getByRole('button', { name: 'Mark as given' }).click();
  await page.locator('#gfe-status', { hasText: 'Marked as given today.' }).waitFor();
  // Given, it is no longer overdue: by due date it stays first, with its status.
  assert.match(await page.locator('#gfe-table tbody tr').nth(0).innerText(), /^Jordan Reyes\s+June 10, 2026\s+June 2, 2026\s+Given\s/);

  await page.locator(`#gfe-table tr[data-gfe="${avery.body.id}"]`).getByRole('button', { name: 'Open for the client' }).click();
  const client = page.locator('#gfe-page');
  await client.locator('h1').waitFor();
  const text = await client.innerText();
  assert.match(text, /Good Faith Estimate\s+What your care is expected to cost, if you pay for it yourself/);
  assert.match(text, /For\s+Avery Walsh, born March 14, 1988\s+Estimate date\s+June 15, 2026/);
  assert.match(text, /What to expect\s+Weekly individual therapy sessions \(psychotherapy, 53 minutes\)\.\s+Your first visit is scheduled for July 6, 2026\./);
  assert.match(text, /This estimate covers your care from July 6, 2026 to December 28, 2026\./);
  assert.match(text, /Estimated total: \$4,160\.00/);
  assert.match(text, /North Clinic Counseling \$3,800\.00, Dr\. Lee Psychiatry \$360\.00/);
  assert.match(text, /Therapy session, 53 minutes\s+90837\s+24\s+\$150\.00\s+\$3,600\.00/);
  assert.match(text, /You may need to schedule these separately[\s\S]*Psychological testing, if recommended \(96130\)/);
  assert.match(text, /Your right to dispute the bill\s+If a bill from any one provider is \$400 or more above this estimate, you can dispute it\./);
  assert.match(text, /This estimate is not a contract\./);

  await page.evaluate(() => (window.print = () => undefined));
  await page.getByRole('button', { name: 'Print for the client' }).click();
  await page.emulateMedia({ media: 'print' });
  // Printed, only the client's page shows: no tabs, no list, no buttons.
  for (const hidden of ['.tabs', '.gfe-tools', '#panel-check']) assert.equal(await page.locator(hidden).isVisible(), false, hidden);
  assert.equal(await client.isVisible(), true);
  await page.screenshot({ path: `${SHOTS}good-faith-estimate.png`, fullPage: true });

  await page.emulateMedia({ media: 'screen' });
  await page.getByRole('button', { name: 'Back to the list' }).click();
  await page.locator('#gfe-table').waitFor();
  assert.equal(await client.isVisible(), false);
  await page.close();
});

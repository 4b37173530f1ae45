/**
 * The front desk's screens (issue 40, item 7), in Chromium: form hints instead of placeholders that
 * look typed in, a deductible that does not price this session said so under its bar, no sandbox
 * stripes on paper, the telehealth price in the schedule table, and a schedule row opened to its card
 * and printed. Screenshots: docs/screenshots/console-deductible-note.png, console-schedule-telehealth.png,
 * console-schedule-open.png, console-schedule-print.png. Skips when /usr/bin/chromium is absent.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';
import { needsChromium } from '../helpers/needs.ts';
import { launchChromium, collectProblems } from '../helpers/browser.ts';

const skip = needsChromium();
const SHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

let server: TestServer;
let browser: Browser;
before(async () => {
  if (skip) return;
  server = await startTestServer();
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function openConsole(): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.setDefaultTimeout(15_000);
  const problems = collectProblems(page);
  await page.goto(`${server.url}/console`);
  await page.getByLabel('API key').fill(TEST_KEY);
  await page.getByLabel('API key').press('Enter');
  await page.locator('#check-form').waitFor();
  await page.evaluate(() => (window.print = () => undefined));
  return { page, problems };
}

test('the form: hints, not placeholders that read as typed-in values; the deductible that does not apply is said so', { skip }, async () => {
  const { page, problems } = await openConsole();
  for (const id of ['session_cost', 'procedure_code']) assert.equal(await page.locator(`#${id}`).getAttribute('placeholder'), null, id);
  assert.equal(await page.locator('#session_cost-help').innerText(), 'In dollars, such as 150 or 150.00; blank gives no price.');
  await page.getByLabel('Member ID').fill('10010MHNA');
  await page.getByLabel('First name').fill('Avery');
  await page.getByLabel('Last name').fill('Walsh');
  await page.getByLabel('Date of birth').fill('1988-03-14');
  await page.getByLabel('Session cost ($)').fill('150');
  await page.getByRole('button', { name: 'Check coverage' }).click();
  await page.locator('#result article.card').waitFor();
  // "Copay, no deductible" beside "$700 of $1,500 met": the bar is the plan's, not this session's price.
  assert.equal(
    await page.locator('#deductible-note').innerText(),
    'The deductible does not apply to this session (copay, no deductible): it is not part of the price above.',
  );
  await page.locator('#result').screenshot({ path: `${SHOTS}console-deductible-note.png` });
  await page.getByRole('button', { name: 'Print summary' }).click();
  await page.emulateMedia({ media: 'print' });
  assert.match(await page.locator('#print-summary').innerText(), /Deductible\t\$700\.00 of \$1,500\.00 met; \$800\.00 left \(does not apply to this session\)/);
  // On paper: the words SANDBOX first and last, not the screen's stripes.
  assert.equal(await page.locator('.mode-banner').isVisible(), false);
  assert.equal(await page.evaluate(() => getComputedStyle(document.body).boxShadow), 'none');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a schedule typed in cents too small: the table and the opened card say SESSION_COST_LOW with the cents meant', { skip }, async () => {
  const { page, problems } = await openConsole();
  await page.getByRole('tab', { name: /schedule/ }).click();
  const csv = ['member_id,member_first_name,member_last_name,member_dob,provider_session_cost', '10010MHNA,Avery,Walsh,1988-03-14,150'].join('\n');
  await page.getByLabel('Schedule file (CSV)').setInputFiles({ name: 'cents.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Upload and check' }).click();
  await page.getByText('All 1 checked').waitFor();
  const row = page.locator('#batch-table tbody tr[data-row="2"]');
  await page.waitForFunction(() => document.querySelector('#batch-table tbody tr[data-verdict]') !== null);
  assert.match(await row.locator('td').last().innerText(), /^session cost low/);
  await row.getByRole('button', { name: /Open row 2/ }).click();
  const alert = page.locator('#result .alert-session-cost-low');
  assert.equal(await alert.textContent(), 'Session cost low 1.50 USD: provider_session_cost is in cents, 15000 is $150.00');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a schedule: the telehealth price in the table; a row opened as its card and printed', { skip }, async () => {
  const { page, problems } = await openConsole();
  await page.getByRole('tab', { name: /schedule/ }).click();
  const csv = [
    'member_id,member_first_name,member_last_name,member_dob,session_cost',
    '10010MHNA,Avery,Walsh,1988-03-14,150',
    '10018MHDM,Lena,Fischer,1987-08-12,150',
  ].join('\n');
  await page.getByLabel('Schedule file (CSV)').setInputFiles({ name: 'tomorrow.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Upload and check' }).click();
  await page.getByText('All 2 checked').waitFor();
  await page.waitForFunction(() => document.querySelectorAll('#batch-table tbody tr[data-verdict]').length === 2);
  const lena = page.locator('#batch-table tbody tr[data-row="3"]');
  assert.equal(await lena.locator('.pays-cell').innerText(), '$30.00\ntelehealth $10.00');
  assert.equal(await page.locator('#batch-table tbody tr[data-row="2"] .telehealth-pays').count(), 0, 'telehealth priced as in person: one price');
  await page.locator('#batch-view').screenshot({ path: `${SHOTS}console-schedule-telehealth.png` });

  await lena.getByRole('button', { name: /Open row 3/ }).click();
  await page.locator('#panel-check').waitFor();
  const card = page.locator('#result article.card');
  await card.waitFor();
  assert.equal(await page.locator('#card-title').innerText(), 'Lena Fischer');
  assert.equal(await page.locator('#patient-pays').innerText(), '$30.00');
  await page.locator('#result').screenshot({ path: `${SHOTS}console-schedule-open.png` });
  await page.getByRole('button', { name: 'Print summary' }).click();
  await page.emulateMedia({ media: 'print' });
  const text = await page.locator('#print-summary').innerText();
  assert.match(text, /From schedule row 3 \(batch bat_\w+\)/);
  assert.match(text, /Name\tLena Fischer/);
  assert.match(text, /Telehealth\t\$10\.00 copay; patient pays \$10\.00/);
  await page.screenshot({ path: `${SHOTS}console-schedule-print.png`, fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

/**
 * The console in Debian's Chromium: one check and one schedule upload, end to end, with the key
 * typed once, the keyboard doing the work, and nothing loaded from anywhere but this server.
 * Screenshots go to docs/screenshots/ (shown in the README). Skips when /usr/bin/chromium is absent.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { US_STATE_CODES } from '../../src/domain/us-states.ts';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';
import { needsChromium } from '../helpers/needs.ts';
import { launchChromium } from '../helpers/browser.ts';

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

/** A page that records every request leaving it and every console error. */
async function openConsole(): Promise<{ page: Page; outside: string[]; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.setDefaultTimeout(15_000);
  const outside: string[] = [];
  const problems: string[] = [];
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(server.url) && !url.startsWith('data:') && !url.startsWith('blob:')) outside.push(url);
  });
  // Chromium logs every 4xx answer as a failed resource; the API's refusals are part of the tests.
  page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.goto(`${server.url}/console`);
  return { page, outside, problems };
}

async function enterKey(page: Page): Promise<void> {
  await page.getByLabel('API key').fill(TEST_KEY);
  await page.getByLabel('API key').press('Enter');
  await page.getByText('in use').waitFor();
}

test('one check: the form, the result card, the key kept for the tab', { skip }, async () => {
  const { page, outside, problems } = await openConsole();
  await enterKey(page);
  assert.equal(await page.evaluate(() => sessionStorage.getItem('coverage-console.apikey')), TEST_KEY);

  // Typed as at the front desk: the name as the patient gives it (the payer has Kathryn Miller-Hayes) and dollars, not cents.
  await page.getByLabel('Member ID').fill('10030MHDM');
  await page.getByLabel('First name').fill('Katherine');
  await page.getByLabel('Last name').fill('Miller');
  await page.getByLabel('Date of birth').fill('1984-04-04');
  await page.getByLabel('Provider NPI').fill('1234567893');
  await page.getByLabel('Session cost ($)').fill('150');
  await page.getByLabel('Session cost ($)').press('Enter');

  const card = page.locator('article.card');
  await card.waitFor();
  assert.equal(await card.locator('.badge').first().textContent(), 'Active');
  assert.equal(await page.locator('#patient-pays').textContent(), '$30.00');
  assert.match((await card.textContent()) ?? '', /Payer pays \$120\.00 of \$150\.00/);
  assert.equal(await card.locator('progress').count(), 2, 'deductible and out-of-pocket bars');
  assert.ok(await card.getByText('Telehealth').count());
  const alerts = await card.locator('.alerts li').allTextContents();
  assert.ok(
    alerts.some((a) => /Demographic Mismatch/i.test(a) && a.includes('KATHRYN') && a.includes('MILLER-HAYES')),
    alerts.join(' / '),
  );

  await page.getByText('Raw JSON').click();
  const raw = JSON.parse((await card.locator('pre').textContent()) ?? '{}');
  assert.equal(raw.member_obligation, 3000);
  assert.equal(raw.provider_session_cost, 15000, 'the $150 typed was sent as 15000 cents');
  await page.getByText('Raw JSON').click();
  await page.screenshot({ path: `${SHOTS}console-check.png`, fullPage: true });

  // A field the API refuses is marked on the form and gets the focus.
  await page.getByLabel('Date of birth').fill('');
  await page.getByRole('button', { name: 'Check coverage' }).click();
  await page.locator('#member_dob-error').waitFor();
  assert.equal(await page.getByLabel('Date of birth').getAttribute('aria-invalid'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'member_dob');

  await page.reload();
  await page.getByText('in use').waitFor();
  assert.equal(await page.getByLabel('API key').isVisible(), false, 'the key survives a reload of the tab');
  assert.deepEqual(outside, []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('keyboard: tab order reaches the form, arrows switch tabs, focus is visible', { skip }, async () => {
  const { page, problems } = await openConsole();
  await enterKey(page);
  await page.getByRole('tab', { name: 'Check one patient' }).focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'tab-batch');
  assert.equal(await page.locator('#panel-batch').isVisible(), true);
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
  assert.equal(outline, 'solid', 'the focused control shows an outline');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'endpoint', 'the selected tab, then the first field');
  for (const id of ['member_id', 'member_first_name', 'member_last_name']) {
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.id), id);
  }
  for (const el of await page.locator('input:not([type=hidden]), select').all()) {
    const id = await el.getAttribute('id');
    assert.ok(id && (await page.locator(`label[for="${id}"]`).count()) === 1, `input ${id} has a label`);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('a schedule: upload, live progress, filter by outcome, download as CSV', { skip }, async () => {
  const { page, outside, problems } = await openConsole();
  await enterKey(page);
  await page.getByRole('tab', { name: /schedule/ }).click();
  const template = readFileSync(fileURLToPath(new URL('../../src/http/console/schedule-template.csv', import.meta.url)), 'utf8');
  const extra = Array.from(
    { length: 33 },
    (_, i) =>
      `estimate,${1000 + i}MH${i % 11 === 0 ? 'MNF' : i % 7 === 0 ? 'UC' : 'NA'},Pat,Lee${String.fromCharCode(97 + (i % 26))},1980-01-01,,1234567893,12000,true,,`,
  );
  const csv = `${template.trimEnd()}\n${extra.join('\n')}\n`;
  await page.getByLabel('Schedule file (CSV)').setInputFiles({ name: 'tomorrow.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Upload and check' }).click();
  await page.getByText('All 40 checked').waitFor();
  assert.equal(await page.locator('#batch-progress').evaluate((p: HTMLProgressElement) => p.value === p.max), true);
  assert.equal(await page.locator('#batch-table tbody tr').count(), 40);

  const notFound = 1 + extra.filter((l) => l.includes('MHMNF')).length;
  await page.getByLabel('Show').selectOption('MEMBER_NOT_FOUND');
  await page.waitForFunction((n) => document.querySelectorAll('#batch-table tbody tr').length === n, notFound);
  assert.match((await page.locator('#batch-table tbody').textContent()) ?? '', /Not found: check the member ID/);
  assert.doesNotMatch((await page.locator('#batch-table tbody').textContent()) ?? '', /MEMBER_NOT_FOUND|404/);
  await page.getByLabel('Show').selectOption('');
  await page.waitForFunction(() => document.querySelectorAll('#batch-table tbody tr').length === 40);
  await page.setViewportSize({ width: 1200, height: 1150 });
  await page.screenshot({ path: `${SHOTS}console-batch.png` });

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download results (CSV)' }).click()]);
  const lines = readFileSync(await download.path(), 'utf8')
    .trimEnd()
    .split('\r\n');
  assert.equal(lines.length, 41);
  assert.match(lines[0]!, /^\uFEFFsandbox,row,verdict,next_step,endpoint,status,outcome,/, 'a byte-order mark, for Excel');
  assert.match(download.suggestedFilename(), /^tomorrow-\d{4}-\d{2}-\d{2}-results\.csv$/, 'named after the upload and its day');
  // The spreadsheet's row: the header is row 1, the first check row 2.
  assert.match(lines[1]!, /^SANDBOX — not real coverage data,2,Patient pays \$[\d.]+,.*,estimate,200,OK,/);
  assert.equal(await page.locator('#batch-table tbody tr').first().locator('td').first().innerText(), '2');
  assert.deepEqual(outside, []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a schedule with a bad row is refused whole, naming the row', { skip }, async () => {
  const { page } = await openConsole();
  await enterKey(page);
  await page.getByRole('tab', { name: /schedule/ }).click();
  const csv = 'member_id,member_dob\n10010MHNA,1988-03-14\n10011MHDM,1979-02-30\n';
  await page.getByLabel('Schedule file (CSV)').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Upload and check' }).click();
  // Numbered as the spreadsheet shows it: the header is row 1.
  await page.getByText('Row 3: member_dob "1979-02-30" is not a real calendar date').waitFor();
  assert.equal(await page.locator('#batch-view').isVisible(), false);
  await page.close();
});

test("the State field offers the server's list of states (GET /console/us-states.json), not a copy in the page", { skip }, async () => {
  const { page, outside, problems } = await openConsole();
  await page.locator(`#patient_state option[value="${US_STATE_CODES.at(-1)}"]`).waitFor({ state: 'attached' });
  const values = await page.locator('#patient_state option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  assert.deepEqual(values, ['', ...US_STATE_CODES]);
  assert.deepEqual(outside, []);
  assert.deepEqual(problems, []);
  await page.close();
});

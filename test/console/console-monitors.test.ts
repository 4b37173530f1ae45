/**
 * The console's "Watched patients" view in Debian's Chromium: a schedule with appointment dates is
 * uploaded, each patient appears with the first check's result, "Check now" checks again, "Stop
 * watching" removes one, and a file with a bad row names it. Skips when /usr/bin/chromium is absent.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser } from 'playwright-core';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';
import { needsChromium } from '../helpers/needs.ts';
import { launchChromium } from '../helpers/browser.ts';

const skip = needsChromium();
const SHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

let server: TestServer;
let browser: Browser;
before(async () => {
  if (skip) return;
  server = await startTestServer({ env: { COVERAGE_MONITOR_POLL_MS: '50' } });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const SCHEDULE = [
  'member_id,member_first_name,member_last_name,member_dob,payer_id,provider_npi,session_cost,appointment_date,reference',
  '10010MHNA,Avery,Walsh,03/14/1988,SBX-EVERGREEN,1234567893,$150.00,12/03/2026,chart 1001',
  '10011MHDM,Marcus,Bell,11/02/1979,SBX-EVERGREEN,1234567893,$150.00,12/03/2026,chart 1002',
  '10010MHNA,Avery,Walsh,03/14/1988,SBX-EVERGREEN,1234567893,$150.00,12/17/2026,chart 1001',
  '',
].join('\n');

test('watched patients: upload a schedule, see each first check, check again, stop watching; a bad row is named', { skip }, async () => {
  const page = await browser.newPage({ viewport: { width: 1300, height: 800 } });
  page.setDefaultTimeout(15_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.goto(`${server.url}/console`);
  await page.getByLabel('API key').fill(TEST_KEY);
  await page.getByLabel('API key').press('Enter');
  await page.getByText('in use').waitFor();

  await page.getByRole('tab', { name: 'Watched patients' }).click();
  await page.getByText('No patients are watched yet.').waitFor();

  await page
    .getByLabel('Watch the patients of a schedule (CSV)')
    .setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(SCHEDULE.replace(',12/03/2026,chart 1002', ',,chart 1002')) });
  await page.getByRole('button', { name: 'Upload and watch' }).click();
  await page.getByText(/row 3/).first().waitFor();
  assert.equal(await page.locator('#watch-table tbody tr[data-monitor]').count(), 0, 'nothing is watched from a refused file');

  await page.getByLabel('Watch the patients of a schedule (CSV)').setInputFiles({ name: 'tomorrow.csv', mimeType: 'text/csv', buffer: Buffer.from(SCHEDULE) });
  await page.getByRole('button', { name: 'Upload and watch' }).click();
  await page.getByText('Watching 2 patients').waitFor();
  const rows = page.locator('#watch-table tbody tr[data-monitor]');
  await page.waitForFunction(() => document.querySelectorAll('#watch-table tbody .badge-active').length === 2);
  assert.equal(await rows.count(), 2);
  const avery = rows.filter({ hasText: 'chart 1001' });
  assert.match((await avery.textContent()) ?? '', /December 3, 2026, December 17, 2026/);
  assert.match((await avery.textContent()) ?? '', /\$30\.00/);
  assert.match((await avery.textContent()) ?? '', /No changes/);
  assert.match((await avery.textContent()) ?? '', /Avery Walsh/, 'the sandbox console shows the name');

  await avery.getByRole('button', { name: 'Check now' }).click();
  await page.getByText('Checked.').waitFor();
  const id = await avery.getAttribute('data-monitor');
  const after = await server.get(`/v1/monitors/${id}`);
  assert.equal(after.body.checks, 2);

  await rows.filter({ hasText: 'chart 1002' }).getByRole('button', { name: 'Stop watching' }).click();
  await page.getByText('No longer watched.').waitFor();
  await page.waitForFunction(() => document.querySelectorAll('#watch-table tbody tr[data-monitor]').length === 1);
  assert.deepEqual(problems, []);
  await page.close();
});

/** MM/DD/YYYY, days from today (UTC), as a spreadsheet writes it. */
const inDays = (n: number) => {
  const d = new Date(Date.now() + n * 86_400_000);
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;
};

test('the watched list names each patient, words each state as the card does, and sorts by next appointment', { skip }, async () => {
  const key = (await server.runtime.keys.create({ name: 'watched words', env: 'sandbox' })).secret;
  const schedule = [
    'member_id,member_first_name,member_last_name,member_dob,payer_id,provider_npi,session_cost,appointment_date,reference',
    `11101MHRR,Peter,Lang,07/04/1972,SBX-EVERGREEN,1234567893,$150.00,${inDays(9)},chart 2005`,
    `10080MHEXP,Gavin,Price,02/28/1981,SBX-EVERGREEN,1234567893,$150.00,${inDays(2)},chart 2003`,
    `10090MHUC,Adrian,Cole,11/19/1986,SBX-EVERGREEN,1234567893,$150.00,${inDays(5)},chart 2004`,
    `10010MHNA,Avery,Walsh,03/14/1988,SBX-EVERGREEN,1234567893,$150.00,${inDays(1)},chart 2001`,
    '',
  ].join('\n');
  const page = await browser.newPage({ viewport: { width: 1300, height: 720 } });
  page.setDefaultTimeout(15_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.goto(`${server.url}/console`);
  await page.getByLabel('API key').fill(key);
  await page.getByLabel('API key').press('Enter');
  await page.getByText('in use').waitFor();
  await page.getByRole('tab', { name: 'Watched patients' }).click();
  await page.getByLabel('Watch the patients of a schedule (CSV)').setInputFiles({ name: 'week.csv', mimeType: 'text/csv', buffer: Buffer.from(schedule) });
  await page.getByRole('button', { name: 'Upload and watch' }).click();
  await page.getByText('Watching 4 patients').waitFor();
  // The first checks run in the background; Refresh reads them, as a person would.
  for (let i = 0; (await page.locator('#watch-table tbody').textContent())?.includes('First check pending'); i++) {
    assert.ok(i < 200, 'the first checks finish');
    await Promise.all([page.waitForResponse((r) => r.url().includes('/v1/monitors?')), page.getByRole('button', { name: 'Refresh' }).click()]);
  }
  const names = await page.locator('#watch-table tbody tr[data-monitor] td:first-child strong').allTextContents();
  assert.deepEqual(names, ['Avery Walsh', 'Gavin Price', 'Adrian Cole', 'Peter Lang'], 'soonest appointment first');
  const text = (name: string) => page.locator('#watch-table tbody tr[data-monitor]').filter({ hasText: name }).textContent();
  assert.match((await text('Gavin Price')) ?? '', /Coverage ended/);
  assert.match((await text('Adrian Cole')) ?? '', /Price unknown: call the plan/);
  assert.match((await text('Adrian Cole')) ?? '', /Not known/);
  assert.match((await text('Peter Lang')) ?? '', /The payer's system did not answer/);
  const table = (await page.locator('#watch-table').textContent()) ?? '';
  assert.doesNotMatch(table, /PAYER_FAILURE|UNKNOWN_COSTSHARE|MEMBER_NOT_FOUND/, 'no raw codes');
  await page.screenshot({ path: `${SHOTS}console-monitors.png`, fullPage: true });

  const [reordered] = await Promise.all([page.waitForResponse((r) => r.url().includes('/v1/monitors?')), page.getByLabel('Order').selectOption('change')]);
  assert.match(reordered.url(), /sort=change/);
  assert.deepEqual(problems, []);
  await page.close();
});

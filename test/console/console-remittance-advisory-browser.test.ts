/**
 * The desk's advisory in the console (docs/remittances.md 'Feedback at the desk'): after three
 * remittances took a $40 copay where the 271 says $30, the estimate card and the schedule table show
 * REMITTANCE_MISMATCH as they show every alert, and the card's price stays the payer's $30.
 * Skips when /usr/bin/chromium is absent.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Browser, type Page } from 'playwright-core';
import { claimOf, PR, remittance835, serviceLine } from '../helpers/remittance-835.ts';
import { needsChromium } from '../helpers/needs.ts';
import { launchChromium, collectProblems } from '../helpers/browser.ts';
import { VALID_NPI } from '../helpers/requests.ts';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';

const skip = needsChromium();
const AVERY = { member_id: '10010MHNA', member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14' };

let server: TestServer;
let browser: Browser;
before(async () => {
  if (skip) return;
  server = await startTestServer();
  browser = await launchChromium();
  // Avery's session estimated, then paid three times with a $40 copay: the key's remittances.
  const est = await server.post('/v1/estimate', { ...AVERY, provider_npi: VALID_NPI, provider_session_cost: 15000, procedure_code: '90837' });
  assert.equal(est.body.copayment, 3000);
  for (let i = 0; i < 3; i++) {
    const file = remittance835(est.body.payer_id, [claimOf(`C${i}`, AVERY, [serviceLine('90837', 15000, 11000, [PR('3', 4000)], 15000)])]);
    assert.equal((await server.post('/v1/remittances', file, { 'content-type': 'application/edi-x12' })).status, 201);
  }
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
  return { page, problems };
}

test("the card shows the advisory beside the payer's price", { skip }, async () => {
  const { page, problems } = await openConsole();
  await page.getByLabel('Member ID').fill('10010MHNA');
  await page.getByLabel('First name').fill('Avery');
  await page.getByLabel('Last name').fill('Walsh');
  await page.getByLabel('Date of birth').fill('1988-03-14');
  await page.getByLabel('Session cost ($)').fill('150');
  await page.getByRole('button', { name: 'Check coverage' }).click();
  await page.locator('#result article.card').waitFor();
  const alert = page.locator('#result .alert-remittance-mismatch');
  assert.match(
    (await alert.textContent()) ?? '',
    /^Remittance mismatch The payer's last 3 remittances for this group took a \$40\.00 copay where its eligibility answer says \$30\.00/,
  );
  assert.equal(await page.locator('#patient-pays').innerText(), '$30.00');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the schedule table names it among the alerts', { skip }, async () => {
  const { page, problems } = await openConsole();
  await page.getByRole('tab', { name: /schedule/ }).click();
  const csv = ['member_id,member_first_name,member_last_name,member_dob,session_cost', '10010MHNA,Avery,Walsh,1988-03-14,150'].join('\n');
  await page.getByLabel('Schedule file (CSV)').setInputFiles({ name: 'advisory.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Upload and check' }).click();
  await page.getByText('All 1 checked').waitFor();
  await page.waitForFunction(() => document.querySelector('#batch-table tbody tr[data-verdict]') !== null);
  const row = page.locator('#batch-table tbody tr[data-row="2"]');
  assert.match(await row.locator('td').last().innerText(), /remittance mismatch/);
  assert.deepEqual(problems, []);
  await page.close();
});

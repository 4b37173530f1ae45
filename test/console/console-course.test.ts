/**
 * The console's "The next 12 weeks": opening it asks the same estimate with a weekly course and shows a
 * row and a bar a session, the reset said (docs/course-of-care.md). Screenshot:
 * docs/screenshots/console-course.png. Skips when /usr/bin/chromium is absent.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser } from 'playwright-core';
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

test('"The next 12 weeks" prices a weekly course across the plan-year reset, a row a session', { skip }, async () => {
  const page = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
  page.setDefaultTimeout(15_000);
  const problems = collectProblems(page);
  const sent: Record<string, unknown>[] = [];
  page.on('request', (r) => r.url().endsWith('/v1/estimate') && sent.push(JSON.parse(r.postData() ?? '{}')));
  await page.goto(`${server.url}/console`);
  await page.getByLabel('API key').fill(TEST_KEY);
  await page.getByLabel('API key').press('Enter');
  await page.locator('#check-form').waitFor();

  await page.getByLabel('Check', { exact: true }).selectOption('estimate');
  await page.getByLabel('Member ID').fill('10125MHDM');
  await page.getByLabel('First name').fill('Nadia');
  await page.getByLabel('Last name').fill('Osei');
  await page.getByLabel('Date of birth').fill('1991-05-20');
  await page.getByLabel('Session cost ($)').fill('150');
  await page.getByRole('button', { name: 'Check coverage' }).click();
  await page.locator('#result article.card').waitFor();
  assert.equal(await page.locator('#patient-pays').innerText(), '$30.00');
  assert.equal(sent.length, 1);
  assert.equal(sent[0]!.course, undefined, 'the check itself prices one session');

  const course = page.locator('#course-of-care');
  assert.equal(await course.getAttribute('open'), null, 'closed until asked');
  await course.locator('summary').click();
  await course.locator('.course-table tbody tr').nth(11).waitFor();
  assert.deepEqual(sent[1]!.course, { sessions: 12, every_days: 7 });
  assert.equal(sent[1]!.member_id, '10125MHDM');

  assert.match(await course.locator('.course-total').innerText(), /^12 sessions: the patient pays \$760\.00, the plan \$1,040\.00\.$/);
  const rows = await course.locator('.course-table tbody tr').allInnerTexts();
  assert.equal(rows.length, 12);
  assert.match(rows[0]!, /\$30\.00\s+copay \/ coinsurance/);
  assert.match(rows[3]!, /\$150\.00\s+to the deductible next plan year\s+\$350\.00\s+\$2,850\.00/);
  assert.match(rows[6]!, /\$70\.00\s+meets the deductible next plan year\s+\$0\.00/);
  // The bars are to scale: a $150 session fills its cell, a $30 one a fifth of it.
  const width = (i: number) =>
    course
      .locator('.course-bar')
      .nth(i)
      .evaluate((e) => (e as HTMLElement).style.width);
  assert.deepEqual([await width(0), await width(3)], ['20%', '100%']);

  await page.locator('#result').screenshot({ path: `${SHOTS}console-course.png` });
  assert.deepEqual(problems, []);
  await page.close();
});

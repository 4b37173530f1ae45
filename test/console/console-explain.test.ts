/**
 * The console's "Why this price?": opening it asks the same estimate again with "explain": true and
 * shows, per figure, the line of the payer's answer and the rule, in words. Screenshot:
 * docs/screenshots/console-explain.png. Skips when /usr/bin/chromium is absent.
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
const NPI = '1234567893';

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

test('"Why this price?" re-asks with explain: true and shows each figure\'s benefit line and rule in words', { skip }, async () => {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  page.setDefaultTimeout(15_000);
  const problems = collectProblems(page);
  const sent: Record<string, unknown>[] = [];
  page.on('request', (r) => r.url().endsWith('/v1/estimate') && sent.push(JSON.parse(r.postData() ?? '{}')));
  await page.goto(`${server.url}/console`);
  await page.getByLabel('API key').fill(TEST_KEY);
  await page.getByLabel('API key').press('Enter');
  await page.locator('#check-form').waitFor();

  // $10 copay + 10 % once the deductible is met, $60 of it left: $60 + $10 + 10 % x $80 = $78 of $150.
  await page.getByLabel('Check', { exact: true }).selectOption('estimate');
  await page.getByLabel('Member ID').fill('10123MHDM');
  await page.getByLabel('First name').fill('Kwame');
  await page.getByLabel('Last name').fill('Mensah');
  await page.getByLabel('Date of birth').fill('1984-06-02');
  await page.getByLabel('Provider NPI').fill(NPI);
  await page.getByLabel('Session cost ($)').fill('150');
  await page.getByRole('button', { name: 'Check coverage' }).click();
  await page.locator('#result article.card').waitFor();
  assert.equal(await page.locator('#patient-pays').innerText(), '$78.00');
  assert.equal(sent.length, 1);
  assert.equal(sent[0]!.explain, undefined, 'the first check does not ask for the explanation');

  const why = page.locator('#why-this-price');
  assert.equal(await why.getAttribute('open'), null, 'closed until asked');
  await why.locator('summary').click();
  await why.locator('.why-steps li').last().waitFor();
  assert.equal(sent.length, 2);
  assert.equal(sent[1]!.explain, true);
  assert.equal(sent[1]!.member_id, '10123MHDM');

  const text = await why.innerText();
  assert.match(text, /Member pays \$78\.00, payer \$72\.00/);
  assert.match(text, /The deductible applies and \$60\.00 remains/);
  assert.match(text, /Capped at the out-of-pocket maximum remaining, \$2,900\.00/);
  // The copay's line in words, with the EB it reads.
  const entry = (label: string) => why.locator('.why-entry').filter({ has: page.locator('strong', { hasText: new RegExp(`^${label}$`) }) });
  const copay = entry('Copay');
  assert.match(await copay.innerText(), /Line \d+ of the payer's answer: mental health, in network, per visit: \$10\.00/);
  // Words first: the segment and its rule wait behind a toggle.
  assert.doesNotMatch(await copay.innerText(), /EB\*B/);
  await copay.locator('details.why-codes summary').click();
  assert.match(await copay.innerText(), /EB\*B\*\*MH\*\*\*27\*10\*/);
  assert.match(await copay.innerText(), /Rule: most specific service type with a cost share: MH/);
  const left = entry('Deductible, individual, left');
  assert.match(await left.innerText(), /mental health, in network, individual, what is left: \$60\.00/);
  // Only the network asked about is listed.
  assert.doesNotMatch(text, /out of network/);
  assert.match(text, /Insurance type: commercial/);
  // Every code in words beside it.
  assert.match(await copay.innerText(), /EB01 B co-payment; EB03 MH mental health; EB06 27 visit; EB12 Y yes/);
  // Every line of this answer prices a figure: no folded list of unused lines.
  assert.equal(await why.locator('details.why-skipped').count(), 0);

  await page.locator('#result').screenshot({ path: `${SHOTS}console-explain.png` });

  // A partial answer asks the question the desk has: why no price.
  await page.getByLabel('Member ID').fill('10090MHUC');
  await page.getByLabel('First name').fill('Adrian');
  await page.getByLabel('Last name').fill('Cole');
  await page.getByLabel('Date of birth').fill('1986-11-19');
  const previous = await page.$('#result article.card');
  await page.getByRole('button', { name: 'Check coverage' }).click();
  await previous?.waitForElementState('hidden');
  await page.locator('#result article.card').waitFor();
  await page.getByText('Why is the price not known?').click();
  await page.locator('#why-this-price .why-steps li').last().waitFor();
  const unknown = await page.locator('#why-this-price').innerText();
  assert.match(unknown, /Neither copay nor coinsurance is known: the cost share is unknown/);
  assert.match(unknown, /no EB A, B or I for the mental-health service types, 98 or 30: unknown/);
  // The lines not used, folded, each with its reason (the out-of-network rows: only in network was asked).
  const skipped = page.locator('#why-this-price details.why-skipped');
  assert.match(await skipped.locator(':scope > summary').innerText(), /Lines of the answer not used \(\d+\)/);
  await skipped.locator(':scope > summary').click();
  assert.match(await skipped.innerText(), /Not used: read only for the out-of-network figures; in network was asked/);
  assert.deepEqual(problems, []);
  await page.close();
});

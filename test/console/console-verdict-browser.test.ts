/**
 * One answer everywhere (issue 24): for each result state the single-check card, the schedule
 * table's row, the downloaded CSV's row and the printout give the same verdict (console/verdict.js)
 * and the same price, in a sandbox server (every printout and file marked) and in a production
 * server against the payer simulator (none marked; its directory has no carve-out administrator,
 * so the carve-out is not priced anywhere). Screenshots: docs/screenshots/verdict-<mode>-*.png.
 * Skips when /usr/bin/chromium is absent.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { parseCsv } from '../../src/formats/csv.ts';
import { UserStore } from '../../src/store/users.ts';
import { startProduction, type ProductionSetup } from '../helpers/production.ts';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';
import { needsChromium } from '../helpers/needs.ts';
import { launchChromium, collectProblems } from '../helpers/browser.ts';

const skip = needsChromium();
const SHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const SANDBOX_MARK = 'SANDBOX — not real coverage data';
const NPI = '1234567893';
const PASSWORD = 'front desk password 1';

interface Patient {
  name: string;
  member_id: string;
  first: string;
  last: string;
  dob: string;
  payer: string;
  /** The verdict state in each mode. */
  sandbox: string;
  production: string;
}

const PATIENTS: Patient[] = [
  { name: 'active', member_id: '10010MHNA', first: 'Avery', last: 'Walsh', dob: '1988-03-14', payer: 'SBX-EVERGREEN', sandbox: 'active', production: 'active' },
  {
    name: 'partial',
    member_id: '10090MHUC',
    first: 'Adrian',
    last: 'Cole',
    dob: '1986-11-19',
    payer: 'SBX-EVERGREEN',
    sandbox: 'partial',
    production: 'partial',
  },
  {
    name: 'ended',
    member_id: '10080MHEXP',
    first: 'Gavin',
    last: 'Price',
    dob: '1981-02-28',
    payer: 'SBX-EVERGREEN',
    sandbox: 'inactive',
    production: 'inactive',
  },
  {
    name: 'not-found',
    member_id: '10100MHMNF',
    first: 'Nora',
    last: 'Quinn',
    dob: '1983-03-23',
    payer: 'SBX-EVERGREEN',
    sandbox: 'not-found',
    production: 'not-found',
  },
  {
    name: 'payer-failure',
    member_id: '11101MHRR',
    first: 'Peter',
    last: 'Lang',
    dob: '1972-07-04',
    payer: 'SBX-EVERGREEN',
    sandbox: 'payer-failure',
    production: 'payer-failure',
  },
  {
    name: 'carve-out',
    member_id: '10040MHCA',
    first: 'Maya',
    last: 'Goldberg',
    dob: '1993-03-19',
    payer: 'SBX-HARBOR',
    sandbox: 'carve-out-priced',
    production: 'carve-out',
  },
];

let browser: Browser;
let sandbox: TestServer;
let production: ProductionSetup;

before(async () => {
  if (skip) return;
  sandbox = await startTestServer();
  // No SBX-MINDFUL in the directory: the carve-out's administrator cannot be asked.
  production = await startProduction({ payerIds: ['SBX-EVERGREEN', 'SBX-HARBOR'] });
  await new UserStore(production.server.runtime.db).create({ username: 'desk', env: 'production', password: PASSWORD });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await sandbox?.close();
  await production?.close();
});

async function openConsole(url: string, mode: 'sandbox' | 'production'): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 }, acceptDownloads: true });
  page.setDefaultTimeout(20_000);
  const problems = collectProblems(page);
  await page.goto(`${url}/console`);
  if (mode === 'sandbox') {
    await page.getByLabel('API key').fill(TEST_KEY);
    await page.getByLabel('API key').press('Enter');
  } else {
    await page.getByLabel('Username').fill('desk');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await page.locator('#check-form').waitFor();
  return { page, problems };
}

interface Seen {
  state: string | null;
  verdict: string;
  pays: string;
}

/** One check in the form: the card's verdict and price, and the printout's. */
interface Single {
  card: Seen;
  print: Seen | null;
  marked: boolean;
}

async function single(page: Page, p: Patient, mode: string): Promise<Single> {
  await page.getByLabel('Check', { exact: true }).selectOption('estimate');
  await page.getByLabel('Member ID').fill(p.member_id);
  await page.getByLabel('First name').fill(p.first);
  await page.getByLabel('Last name').fill(p.last);
  await page.getByLabel('Date of birth').fill(p.dob);
  await page.locator('#payer_id').fill(p.payer);
  await page.getByLabel('Provider NPI').fill(NPI);
  await page.getByLabel('Session cost ($)').fill('150');
  const previous = await page.$('#result article.card');
  await page.getByRole('button', { name: 'Check coverage' }).click();
  await previous?.waitForElementState('hidden');
  const verdict = page.locator('#result article.card [data-verdict]');
  await verdict.waitFor();
  const pays = page.locator('#patient-pays');
  const source = page.locator('#priced-by');
  const card: Seen = {
    state: await verdict.getAttribute('data-verdict'),
    verdict: await verdict.locator('.verdict-text').innerText(),
    pays: (await pays.count()) ? `${await pays.innerText()}${(await source.count()) ? ` ${await source.innerText()}` : ''}` : '',
  };
  await page.locator('#result').screenshot({ path: `${SHOTS}verdict-${mode}-${p.name}.png` });
  if ((await page.locator('#print-summary').count()) === 0) return { card, print: null, marked: false };
  const summary = page.locator('#print-summary');
  const rows = Object.fromEntries(
    await summary.locator('tr').evaluateAll((trs) => trs.map((tr) => [tr.querySelector('th')?.textContent ?? '', tr.querySelector('td')?.textContent ?? ''])),
  ) as Record<string, string>;
  return {
    card,
    print: { state: null, verdict: rows.Verdict ?? '', pays: rows['Patient pays'] ?? rows['This session'] ?? '' },
    marked: (await summary.textContent())!.includes(SANDBOX_MARK),
  };
}

function scheduleCsv(): string {
  const head = 'endpoint,member_id,member_first_name,member_last_name,member_dob,payer_id,provider_npi,provider_session_cost,in_network';
  return [head, ...PATIENTS.map((p) => `estimate,${p.member_id},${p.first},${p.last},${p.dob},${p.payer},${NPI},15000,true`)].join('\r\n') + '\r\n';
}

const dollarsIn = (text: string) => /\$[\d,]+\.\d\d/.exec(text)?.[0] ?? null;

async function proveMode(mode: 'sandbox' | 'production', url: string): Promise<void> {
  const { page, problems } = await openConsole(url, mode);
  const singles: Single[] = [];
  for (const p of PATIENTS) singles.push(await single(page, p, mode));

  await page.getByRole('tab', { name: /schedule/ }).click();
  await page.getByLabel('Schedule file (CSV)').setInputFiles({ name: 'tomorrow.csv', mimeType: 'text/csv', buffer: Buffer.from(scheduleCsv()) });
  await page.getByRole('button', { name: 'Upload and check' }).click();
  await page.getByText(`All ${PATIENTS.length} checked`).waitFor({ timeout: 60_000 });
  await page.locator('#batch-view').screenshot({ path: `${SHOTS}verdict-${mode}-schedule.png` });
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download results (CSV)' }).click()]);
  const [header, ...lines] = parseCsv(readFileSync(await download.path(), 'utf8').replace(/^\ufeff/, '')).map((r) => r.cells);
  const csv = lines.map((cells) => Object.fromEntries(header!.map((h, i) => [h, cells[i] ?? ''])));
  assert.equal(header![0] === 'sandbox', mode === 'sandbox', `${mode}: the file is marked sandbox only from a sandbox server`);

  for (const [i, p] of PATIENTS.entries()) {
    const { card, print, marked } = singles[i]!;
    const sheetRow = String(i + 2);
    const tr = page.locator(`#batch-table tbody tr[data-row="${sheetRow}"]`);
    const row: Seen = {
      state: await tr.getAttribute('data-verdict'),
      verdict: await tr.locator('.verdict-text').innerText(),
      pays: await tr.locator('.pays-cell').innerText(),
    };
    const line = csv.find((c) => c.row === sheetRow)!;
    const what = `${mode} ${p.name}`;
    assert.ok(line, `${what}: the CSV's row is the spreadsheet's row ${sheetRow}`);
    assert.equal(card.state, p[mode], `${what}: the card's state`);
    assert.equal(row.state, card.state, `${what}: the table's state`);
    assert.equal(row.verdict, card.verdict, `${what}: table and card`);
    assert.equal(line.verdict, card.verdict, `${what}: CSV and card`);
    if (print) assert.equal(print.verdict, card.verdict, `${what}: printout and card`);
    assert.equal(line.sandbox === SANDBOX_MARK, mode === 'sandbox', `${what}: the CSV line's mark`);
    if (print) assert.equal(marked, mode === 'sandbox', `${what}: the printout's mark`);

    // The same price (or none) everywhere, as the verdict says it.
    const price = dollarsIn(card.verdict);
    if (price) {
      assert.equal(dollarsIn(card.pays), price, `${what}: the card's amount`);
      assert.equal(row.pays, price, `${what}: the table's amount`);
      assert.equal(`$${line.patient_pays_dollars}`, price, `${what}: the CSV's amount`);
      if (print) assert.equal(dollarsIn(print.pays), price, `${what}: the printout's amount`);
    } else {
      assert.equal(dollarsIn(card.pays), null, `${what}: no amount on the card`);
      assert.equal(dollarsIn(row.pays), null, `${what}: no amount in the table`);
      assert.equal(line.patient_pays_dollars, '', `${what}: no amount in the CSV`);
      if (print) assert.equal(dollarsIn(print.pays), null, `${what}: no amount on the printout`);
    }
    // A carve-out's price is always said with whose answer it is.
    if (card.state === 'carve-out-priced') {
      for (const text of [card.pays, row.verdict, line.verdict, print?.pays ?? '']) assert.match(text, /per Mindful Behavioral Health/, what);
    }
    // No HTTP in the table: words, not codes.
    assert.doesNotMatch(await tr.innerText(), /\b(200|206|404|502)\b|[A-Z]+_[A-Z]+/, `${what}: the table row in words`);
  }

  // The printout of the carve-out, as it goes to the chart.
  await page.getByRole('tab', { name: /check/i }).first().click();
  await single(
    page,
    PATIENTS.find((p) => p.name === 'carve-out')!,
    mode,
  );
  await page.emulateMedia({ media: 'print' });
  await page.screenshot({ path: `${SHOTS}verdict-${mode}-print.png`, fullPage: true });
  await page.emulateMedia({ media: 'screen' });
  assert.deepEqual(problems, []);
  await page.close();
}

test('sandbox: card, schedule row, CSV row and printout agree for every state, and each printout and file is marked', { skip }, async () => {
  await proveMode('sandbox', sandbox.url);
});

test('the error summary names fields as the form does', { skip }, async () => {
  const { page, problems } = await openConsole(sandbox.url, 'sandbox');
  await page.getByLabel('Member ID').fill('10010MHNA');
  await page.getByLabel('Date of birth').fill('');
  await page.getByRole('button', { name: 'Check coverage' }).click();
  const summary = page.locator('#result .card-error ul.errors li');
  await summary.first().waitFor();
  const inline = await page.locator('#member_dob-error').innerText();
  assert.match(inline, /^Date of birth /);
  assert.ok((await summary.allInnerTexts()).includes(inline), 'the summary says what the field says');
  assert.doesNotMatch((await summary.allInnerTexts()).join(' '), /member_dob/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('production: the same agreement, nothing marked sandbox; a carve-out nobody could ask shows no price anywhere', { skip }, async () => {
  await proveMode('production', production.server.url);
});

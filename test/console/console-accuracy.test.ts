/**
 * The console's "Estimate accuracy" view in Debian's Chromium: three weeks of sandbox estimates,
 * remitted by the payer simulator with a mix of deviations (src/payers/simulator/remittance.ts), shown
 * as a bar per payer, a weekly trend and a table per plan; the CSV download holds the same figures as
 * GET /v1/accuracy. Screenshot: docs/screenshots/console-accuracy.png. Skips when /usr/bin/chromium is absent.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser } from 'playwright-core';
import { simulateRemittance, type RemitScenario } from '../../src/payers/simulator/remittance.ts';
import { needsChromium } from '../helpers/needs.ts';
import { launchChromium } from '../helpers/browser.ts';
import { VALID_NPI } from '../helpers/requests.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const skip = needsChromium();
const SHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

// Remittances are counted under the day they are received: the test's clock, moved week by week.
let clock = new Date('2026-06-01T09:00:00Z');
let server: TestServer;
let browser: Browser;
before(async () => {
  if (skip) return;
  server = await startTestServer({ now: () => clock });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const MEMBERS = {
  avery: ['10010MHNA', 'Avery', 'Walsh', '1988-03-14'],
  marcus: ['10011MHDM', 'Marcus', 'Bell', '1979-11-02'],
  priya: ['10012MHDM', 'Priya', 'Raman', '1992-07-21'],
  diego: ['10013MHDM', 'Diego', 'Alvarez', '1985-01-30'],
  grace: ['10016MHDM', 'Grace', 'Lindqvist', '1983-12-01'],
  imani: ['10021MHDM', 'Imani', 'Brooks', '1994-10-03'],
  lucia: ['10120MHDM', 'Lucia', 'Romano', '1989-10-27'],
} as const;
type Member = keyof typeof MEMBERS;

/** Each week's sessions and how the payer paid them: the misses thin out as the weeks go by. */
const WEEKS: { day: string; sessions: [Member, RemitScenario][] }[] = [
  {
    day: '2026-06-01',
    sessions: [
      ['avery', 'copay_changed'],
      ['marcus', 'deductible_progressed'],
      ['priya', 'as_estimated'],
      ['diego', 'denied'],
      ['grace', 'copay_changed'],
      ['imani', 'as_estimated'],
      ['lucia', 'as_estimated'],
    ],
  },
  {
    day: '2026-06-08',
    sessions: [
      ['avery', 'as_estimated'],
      ['marcus', 'deductible_progressed'],
      ['priya', 'as_estimated'],
      ['diego', 'as_estimated'],
      ['grace', 'as_estimated'],
      ['imani', 'as_estimated'],
      ['lucia', 'copay_changed'],
    ],
  },
  {
    day: '2026-06-15',
    sessions: [
      ['avery', 'as_estimated'],
      ['marcus', 'as_estimated'],
      ['priya', 'as_estimated'],
      ['diego', 'as_estimated'],
      ['grace', 'as_estimated'],
      ['imani', 'as_estimated'],
      ['lucia', 'as_estimated'],
    ],
  },
];

async function playWeeks(key: string) {
  for (const week of WEEKS) {
    clock = new Date(`${week.day}T09:00:00Z`);
    const answered: { payer: string; estimate: any; scenario: RemitScenario }[] = [];
    for (const [who, scenario] of week.sessions) {
      const [member_id, member_first_name, member_last_name, member_dob] = MEMBERS[who];
      const body = {
        member_id,
        member_first_name,
        member_last_name,
        member_dob,
        provider_npi: VALID_NPI,
        provider_session_cost: 15000,
        date_of_service: week.day,
      };
      const r = await server.post('/v1/estimate', body, { apikey: key });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      answered.push({ payer: r.body.payer_id, estimate: r.body, scenario });
    }
    // Three days later each payer's 835 arrives.
    clock = new Date(clock.getTime() + 3 * 86_400_000);
    for (const payer of new Set(answered.map((a) => a.payer))) {
      const sim = simulateRemittance(
        answered.filter((a) => a.payer === payer),
        clock,
        { name: 'NORTH CLINIC', npi: VALID_NPI },
      );
      assert.deepEqual(sim.skipped, []);
      const r = await server.post('/v1/remittances', sim.x12!, { apikey: key, 'content-type': 'application/edi-x12' });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      assert.equal(r.body.unmatched, 0, JSON.stringify(r.body.lines));
    }
  }
}

test('estimate accuracy: a bar per payer, the weekly trend, a table per plan, and the CSV of the report', { skip }, async () => {
  const key = (await server.runtime.keys.create({ name: 'accuracy view', env: 'sandbox' })).secret;
  await playWeeks(key);
  const report = (await server.get('/v1/accuracy', { apikey: key })).body;
  assert.deepEqual(
    report.payers.map((p: { payer_id: string; lines: number; exact: number; off: number }) => [p.payer_id, p.lines, p.exact, p.off]),
    [
      ['SBX-EVERGREEN', 12, 8, 4],
      ['SBX-HARBOR', 9, 7, 2],
    ],
  );

  const page = await browser.newPage({ viewport: { width: 1300, height: 900 }, acceptDownloads: true });
  page.setDefaultTimeout(15_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.goto(`${server.url}/console`);
  await page.getByLabel('API key').fill(key);
  await page.getByLabel('API key').press('Enter');
  await page.getByText('in use').waitFor();
  await page.getByRole('tab', { name: 'Estimate accuracy' }).click();
  await page.getByText('21 lines from 2 payers.').waitFor();

  const evergreen = page.locator('.bar-row[data-payer="SBX-EVERGREEN"]');
  assert.match((await evergreen.textContent()) ?? '', /12 lines: 67 % right to the dollar; collected \$10\.00 too little, \$\d[\d,]*\.\d\d too much/);
  assert.equal(await evergreen.locator('.seg-exact').getAttribute('title'), 'Exact: 8');
  const weeks = await page
    .locator('.columns .column')
    .evaluateAll((cs) => cs.map((c) => [c.getAttribute('data-week'), c.querySelector('.column-value')!.textContent]));
  assert.deepEqual(weeks, [
    ['2026-06-01', '43 %'],
    ['2026-06-08', '71 %'],
    ['2026-06-15', '100 %'],
  ]);
  assert.ok((await page.locator('#accuracy-table tbody tr').count()) >= 2);
  await page.screenshot({ path: `${SHOTS}console-accuracy.png`, fullPage: true });

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  assert.equal(download.suggestedFilename(), 'estimate-accuracy.csv');
  const csv = readFileSync(await download.path(), 'utf8')
    .trimEnd()
    .split('\r\n');
  assert.equal(
    csv[0],
    'payer_id,group_id,benefit_structure,week,lines,compared,exact,within_1,off,not_comparable,under_collected_cents,over_collected_cents,top_cause',
  );
  const rows = report.payers.reduce((n: number, p: { plans: unknown[]; weeks: unknown[] }) => n + 1 + p.plans.length + p.weeks.length, 0);
  assert.equal(csv.length, 1 + rows);
  const total = report.payers[0];
  assert.equal(
    csv[1],
    [
      'SBX-EVERGREEN',
      '',
      '',
      '',
      total.lines,
      total.compared,
      total.exact,
      total.within_1,
      total.off,
      total.not_comparable,
      total.under_collected_cents,
      total.over_collected_cents,
      total.causes[0].cause,
    ].join(','),
  );

  await page.getByLabel('Received from').fill('2026-06-15');
  await page.getByRole('button', { name: 'Show' }).click();
  await page.getByText('7 lines from 2 payers.').waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});

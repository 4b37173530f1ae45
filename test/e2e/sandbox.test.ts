/**
 * The sandbox as a newcomer runs it (README, "Two commands"): `npm start`, or `coverage serve` from
 * the packed tarball when scripts/pack-check.sh runs this suite (launch.ts). Each feature family once,
 * over HTTP only: the four endpoints with the `apikey` header, FHIR, a batch whose `batch.completed`
 * reaches a webhook receiver on loopback (verified with the standardwebhooks package), console sign-in
 * of a person added with `coverage users add`, the `coverage check` and `coverage batch` commands, a
 * course of care and the remittance of its first session (`simulate-payer --remit`, POST /v1/remittances,
 * `coverage remit`, /v1/accuracy), and the API docs page. Every answer is checked against the served OpenAPI document (api.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { assertConformant } from '../fhir/conformance.ts';
import { AVERY, eligibilityRequest } from '../fhir/fixtures.ts';
import { eventChecker } from '../monitoring/receiver.ts';
import { apiOf, type Call } from './api.ts';
import { coverage, prepare, serve, TARGET, type Running } from './launch.ts';
import { deliveredEvent, startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';

const SCHEDULE = fileURLToPath(new URL('../../examples/schedule.csv', import.meta.url));
const KEY = 'cov_dev_e2e_sandbox_0123456789abcdefghij';
const avery = { member_id: '10010MHNA', member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14' };

let dir: string;
let env: Record<string, string>;
let server: Running;
let api: Call;
let receiver: WebhookReceiver;

before(async () => {
  await prepare();
  dir = mkdtempSync(join(tmpdir(), 'coverage-e2e-sandbox-'));
  receiver = await startWebhookReceiver();
  env = {
    COVERAGE_DATA_DIR: join(dir, 'data'),
    COVERAGE_DEV_KEY: KEY,
    // docs/monitoring.md: `http` and loopback receivers are for development and tests, and need this.
    COVERAGE_WEBHOOK_ALLOW_INSECURE: '1',
    COVERAGE_WEBHOOK_POLL_MS: '50',
    COVERAGE_BATCH_POLL_MS: '50',
  };
  server = await serve(env);
  api = await apiOf(server.url, KEY);
});
after(async () => {
  await server?.stop();
  await receiver?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test(`${TARGET}: the four endpoints answer the README's calls`, async () => {
  const estimate = await api('POST', '/v1/estimate', {
    body: {
      ...avery,
      payer_id: 'SBX-EVERGREEN',
      provider_npi: '1234567893',
      provider_session_cost: '15000',
      in_network: true,
      procedure_code: '90837',
      place_of_service: '10',
    },
  });
  assert.equal(estimate.status, 200, estimate.text);
  assert.deepEqual([estimate.body.plan_status, estimate.body.copayment, estimate.body.member_obligation], ['ACTIVE', 3000, 3000]);
  const { member_id: _, ...byName } = avery;
  const discover = await api('POST', '/v1/discover', { body: { ...byName, zip: '10001', payer_id: 'SBX-EVERGREEN' } });
  assert.equal(discover.status, 200, discover.text);
  assert.deepEqual([discover.body.payer_id, discover.body.plan_status], ['SBX-EVERGREEN', 'ACTIVE']);
  const scan = await api('POST', '/v1/scan', { body: { ...byName, zip: '' } });
  assert.equal(scan.status, 200, scan.text);
  assert.equal(scan.body.payer_id, 'SBX-EVERGREEN');
  const medicaid = await api('POST', '/v1/medicaid', {
    body: { member_id: '10070MHOMCD', member_first_name: 'Luis', member_last_name: 'Herrera', member_dob: '1999-11-11', patient_state: 'NY' },
  });
  assert.equal(medicaid.status, 200, medicaid.text);
  assert.equal(medicaid.body.plan_status, 'ACTIVE');
  // A payer that does not report the cost share: 206, the unknown amount null, never 0.
  const unknown = await api('POST', '/v1/estimate', {
    body: { member_id: '10090MHUC', member_first_name: 'Adrian', member_last_name: 'Cole', member_dob: '1986-11-19', provider_session_cost: '15000' },
  });
  assert.deepEqual([unknown.status, unknown.body.error_code, unknown.body.member_obligation], [206, 'UNKNOWN_COSTSHARE', null]);
  const noKey = await api('POST', '/v1/estimate', { body: avery, apikey: null });
  assert.deepEqual([noKey.status, noKey.body.error_code], [401, 'UNAUTHORIZED']);
});

test(`${TARGET}: FHIR R4, the CapabilityStatement and a CoverageEligibilityRequest`, async () => {
  const metadata = await api('GET', '/fhir/r4/metadata', { apikey: null });
  assert.equal(metadata.status, 200);
  assert.equal(metadata.body.resourceType, 'CapabilityStatement');
  const res = await api('POST', '/fhir/r4/CoverageEligibilityRequest/$submit', {
    body: eligibilityRequest(AVERY, { price: 150 }),
    headers: { 'content-type': 'application/fhir+json' },
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.resourceType, 'CoverageEligibilityResponse');
  assertConformant(res.body, 'the answer');
  assert.equal(res.body.insurance[0].inforce, true);
});

test(`${TARGET}: a batch uploaded as CSV runs, and its batch.completed reaches a webhook, signed`, async () => {
  const hook = await api('POST', '/v1/webhooks', { body: { url: receiver.url, events: ['batch.completed'] } });
  assert.equal(hook.status, 201, hook.text);
  const batch = await api('POST', '/v1/batches?filename=schedule.csv', { body: readFileSync(SCHEDULE, 'utf8'), headers: { 'content-type': 'text/csv' } });
  assert.equal(batch.status, 202, batch.text);
  const delivered = await deliveredEvent(
    receiver,
    hook.body,
    'batch.completed',
    async (id) => (await api('GET', `/v1/webhooks/${id}/deliveries`)).body.deliveries,
  );
  (await eventChecker(server.url))(delivered.raw);
  assert.deepEqual(delivered.event.data, {
    batch_id: batch.body.id,
    status: 'completed',
    total: 8,
    done: 8,
    ok: 6,
    cancelled: 0,
    results_url: `/v1/batches/${batch.body.id}/results`,
  });
  const results = await api('GET', `/v1/batches/${batch.body.id}/results`);
  assert.equal(results.status, 200, results.text);
  // examples/schedule.csv: four plans found, an unknown cost share (206, not ok), a member not found, a discover and a Medicaid check.
  assert.deepEqual(
    results.body.results.map((r: { status: number }) => r.status),
    [200, 200, 200, 200, 206, 404, 200, 200],
  );
  // The same results as CSV: checked against the document's text/csv schema (api.ts checks by content type).
  const csv = await api('GET', `/v1/batches/${batch.body.id}/results`, { headers: { accept: 'text/csv' } });
  assert.equal(csv.status, 200, csv.text);
  assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
  assert.equal(csv.text.trim().split(/\r?\n/).length, 9, 'a header and one line per row');
  const log = await api('GET', `/v1/webhooks/${hook.body.id}/deliveries`);
  assert.deepEqual(
    log.body.deliveries.map((d: { id: string; state: string; last_status: number }) => [d.id, d.state, d.last_status]),
    [[delivered.webhookId, 'delivered', 200]],
  );
});

test(`${TARGET}: a person added with coverage users add signs in to the console and checks as themself`, async () => {
  const page = await api('GET', '/console/', { apikey: null });
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  const password = 'front desk password 1';
  const added = await coverage(['users', 'add', 'frontdesk', '--password-stdin'], { COVERAGE_DATA_DIR: env.COVERAGE_DATA_DIR! }, `${password}\n`);
  assert.equal(added.code, 0, added.stderr);
  const console = { 'x-coverage-console': '1' };
  const wrong = await api('POST', '/console/session', { body: { username: 'frontdesk', password: 'not the password' }, headers: console, apikey: null });
  assert.equal(wrong.status, 401);
  const signedIn = await api('POST', '/console/session', { body: { username: 'frontdesk', password }, headers: console, apikey: null });
  assert.equal(signedIn.status, 200, signedIn.text);
  const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
  const who = await api('GET', '/console/session', { headers: { cookie }, apikey: null });
  assert.deepEqual([who.status, who.body.username], [200, 'frontdesk']);
  const check = await api('POST', '/v1/estimate', { body: { ...avery, provider_session_cost: '15000' }, headers: { cookie, ...console }, apikey: null });
  assert.deepEqual([check.status, check.body.member_obligation], [200, 3000]);
});

test(`${TARGET}: the coverage command checks and sends a schedule as a batch`, async () => {
  const cli = { COVERAGE_URL: server.url, COVERAGE_API_KEY: KEY };
  const check = await coverage(
    ['check', 'estimate', '--member-id', '10010MHNA', '--first-name', 'Avery', '--last-name', 'Walsh', '--dob', '1988-03-14', '--cost', '150', '--json'],
    cli,
  );
  assert.equal(check.code, 0, check.stderr);
  assert.equal(JSON.parse(check.stdout).member_obligation, 3000);
  const out = join(dir, 'results.csv');
  const batch = await coverage(['batch', SCHEDULE, '--out', out], cli);
  assert.equal(batch.code, 0, batch.stderr);
  const lines = readFileSync(out, 'utf8').trim().split(/\r?\n/);
  assert.equal(lines.length, 9, 'a header and one line per row of the schedule');
});

test(`${TARGET}: a course of care is priced, and the payer's remittance for its first session is compared with it`, async () => {
  const estimate = await api('POST', '/v1/estimate', {
    body: {
      ...avery,
      payer_id: 'SBX-EVERGREEN',
      provider_npi: '1234567893',
      provider_session_cost: 15000,
      procedure_code: '90837',
      course: { sessions: 4, every_days: 7 },
    },
  });
  assert.equal(estimate.status, 200, estimate.text);
  assert.equal(estimate.body.course.lines.length, 4);
  assert.equal(estimate.body.course.lines[0].member_obligation, estimate.body.member_obligation, 'the first line is the single estimate');
  // The payer's 835 for that session, as the simulator writes it from the answer (docs/remittances.md), sent back.
  const estimates = join(dir, 'estimates.json');
  const file = join(dir, 'remittance.835');
  writeFileSync(estimates, JSON.stringify([estimate.body]));
  const written = await coverage(['simulate-payer', '--remit', estimates, '--out', file], {});
  assert.equal(written.code, 0, written.stderr);
  const remitted = await api('POST', '/v1/remittances', { body: readFileSync(file, 'utf8'), headers: { 'content-type': 'application/edi-x12' } });
  assert.equal(remitted.status, 201, remitted.text);
  assert.deepEqual([remitted.body.service_lines, remitted.body.matched], [1, 1]);
  assert.equal(remitted.body.lines[0].comparison.verdict, 'exact');
  const summary = await coverage(['remit', file], { COVERAGE_URL: server.url, COVERAGE_API_KEY: KEY });
  assert.equal(summary.code, 0, summary.stderr);
  assert.doesNotMatch(summary.stdout, /10010MHNA|AVERY|WALSH/i, 'the summary names no patient');
  const accuracy = await api('GET', '/v1/accuracy?payer_id=SBX-EVERGREEN');
  assert.equal(accuracy.status, 200);
  assert.ok(accuracy.body.payers[0].exact >= 1, JSON.stringify(accuracy.body));
});

test(`${TARGET}: a Good Faith Estimate is kept, listed, given, and checked against a bill`, async () => {
  const gfe = JSON.parse(readFileSync(fileURLToPath(new URL('../../examples/good-faith-estimate.json', import.meta.url)), 'utf8'));
  const made = await api('POST', '/v1/good-faith-estimates', { body: gfe });
  assert.equal(made.status, 201, made.text);
  assert.equal(made.body.status, 'draft');
  const listed = await api('GET', '/v1/good-faith-estimates');
  assert.ok(
    listed.body.estimates.some((e: { id: string }) => e.id === made.body.id),
    listed.text,
  );
  const given = await api('POST', `/v1/good-faith-estimates/${made.body.id}/given`, { body: { given_on: '2026-06-16' } });
  assert.equal(given.body.status, 'given', given.text);
  // $760 billed by the co-provider whose estimate is $360: $400 above it, which the client may dispute.
  const checked = await api('POST', `/v1/good-faith-estimates/${made.body.id}/billed-check`, { body: { bills: [{ npi: '1987654328', billed_cents: 76000 }] } });
  assert.equal(checked.status, 200, checked.text);
  assert.match(checked.text, /1987654328/);
});

test(`${TARGET}: the API docs page loads Swagger UI on demand`, async () => {
  const docs = await api('GET', '/docs/', { apikey: null });
  assert.equal(docs.status, 200);
  assert.match(docs.text, /swagger/i);
});

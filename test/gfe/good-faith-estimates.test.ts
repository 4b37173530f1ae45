/**
 * Good Faith Estimates through HTTP (docs/good-faith-estimate.md): made, refused naming each missing
 * element, listed overdue first, read, changed as a new version, given, bills held against the version
 * given; priced from the fee schedule; per-key, sealed at rest, audited by keyed hash.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GfeStore } from '../../src/store/good-faith-estimates.ts';
import { ownerOf } from '../../src/store/keys.ts';
import { SealedText } from '../../src/store/sealed-text.ts';
import { DataKey } from '../../src/store/data-key.ts';
import { REQUIRED_ELEMENTS } from '../../src/domain/gfe/index.ts';
import { completeGfe, CO_PROVIDER_NPI } from '../helpers/gfe-request.ts';
import { VALID_NPI } from '../helpers/requests.ts';
import { startTestServer, TEST_KEY, TEST_TODAY, type TestServer } from '../helpers/server.ts';

const DATA_KEY = '3c'.repeat(32);
let server: TestServer;
before(async () => {
  server = await startTestServer({ env: { COVERAGE_DATA_KEY: DATA_KEY } });
});
after(() => server.close());

const PATH = '/v1/good-faith-estimates';

test('a complete estimate is kept as version 1, a draft, with totals and its due date in business days', async () => {
  assert.equal(TEST_TODAY, '2026-06-15');
  const r = await server.post(PATH, completeGfe());
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.match(r.body.id, /^gfe_[0-9a-f]{24}$/);
  assert.equal(r.headers.get('location'), `${PATH}/${r.body.id}`);
  assert.deepEqual([r.body.version, r.body.status, r.body.overdue, r.body.given_at], [1, 'draft', false, null]);
  // Scheduled Monday June 15th for Monday July 6th: 13 business days ahead, so due 3 business days after scheduling.
  assert.deepEqual(r.body.due, { date: '2026-06-18', rule: 'scheduled_10_or_more_business_days', lead_business_days: 13 });
  assert.deepEqual(
    r.body.providers.map((p: any) => [p.role, p.npi, p.total_cents]),
    [
      ['convening', VALID_NPI, 20000 + 24 * 15000],
      ['co_provider', CO_PROVIDER_NPI, 36000],
    ],
  );
  assert.equal(r.body.total_cents, 416000);
  assert.deepEqual(r.body.versions, [{ version: 1, status: 'draft', created_at: r.body.created_at, total_cents: 416000 }]);
  const back = await server.get(`${PATH}/${r.body.id}`);
  assert.equal(back.status, 200);
  assert.deepEqual(back.body, r.body);
});

test('a request lacking any one required element is refused, the element named in the message and its field in errors', async () => {
  const drops: Record<string, (r: any) => void> = {
    client_name_and_dob: (r) => delete r.client.dob,
    primary_service: (r) => delete r.primary_service.description,
    itemized_services: (r) => (r.co_providers[0].services = []),
    service_codes_and_charges: (r) => delete r.convening_provider.services[1].charge_cents,
    provider_identity: (r) => delete r.convening_provider.npi,
    provider_locations: (r) => delete r.co_providers[0].locations,
    separate_scheduling: (r) => delete r.separate_scheduling,
    notice_additional_services: (r) => delete r.notices.additional_services,
    notice_estimate_only: (r) => delete r.notices.estimate_only,
    notice_dispute_rights: (r) => delete r.notices.dispute_rights,
    notice_not_a_contract: (r) => delete r.notices.not_a_contract,
    scheduled_or_requested_on: (r) => delete r.scheduled_on,
  };
  assert.deepEqual(Object.keys(drops).sort(), Object.keys(REQUIRED_ELEMENTS).sort(), 'every element is tried');
  for (const [element, drop] of Object.entries(drops)) {
    const body = completeGfe();
    drop(body);
    const r = await server.post(PATH, body);
    assert.equal(r.status, 400, element);
    assert.equal(r.body.error_code, 'INVALID_REQUEST');
    assert.match(r.body.message, new RegExp(`^The Good Faith Estimate lacks what 45 CFR 149\\.610 requires: .*\\(${element}\\)$`), element);
    assert.ok(r.body.errors.length >= 1);
  }
  const none = await server.post(PATH, {});
  assert.equal(none.status, 400);
  for (const e of ['client_name_and_dob', 'primary_service', 'provider_identity', 'separate_scheduling', 'notice_dispute_rights', 'notice_not_a_contract'])
    assert.match(none.body.message, new RegExp(`\\(${e}\\)`));
  const bad = await server.post(PATH, { ...completeGfe(), diagnosis_codes: ['not a code'] });
  assert.equal(bad.status, 400);
  assert.deepEqual(
    bad.body.errors.map((e: any) => e.field),
    ['diagnosis_codes'],
  );
});

test('a change is a new version: the old one is kept, superseded, and the new one is due the business day before the service', async () => {
  const first = await server.post(PATH, completeGfe());
  const changed = completeGfe();
  changed.convening_provider!.services[1]!.quantity = 12;
  const second = await server.post(`${PATH}/${first.body.id}/versions`, changed);
  assert.equal(second.status, 201, JSON.stringify(second.body));
  assert.deepEqual([second.body.id, second.body.version, second.body.status], [first.body.id, 2, 'draft']);
  assert.deepEqual(second.body.due, { date: '2026-07-02', rule: 'changed_before_service', lead_business_days: 13 });
  assert.equal(second.body.total_cents, 20000 + 12 * 15000 + 36000);
  assert.deepEqual(
    second.body.versions.map((v: any) => [v.version, v.status, v.total_cents]),
    [
      [1, 'superseded', 416000],
      [2, 'draft', 236000],
    ],
  );
  const old = await server.get(`${PATH}/${first.body.id}?version=1`);
  assert.equal(old.status, 200);
  assert.equal(old.body.status, 'superseded');
  assert.equal(old.body.total_cents, 416000);
  assert.equal((await server.get(`${PATH}/${first.body.id}?version=3`)).status, 404);
  assert.equal((await server.post(`${PATH}/gfe_000000000000000000000000/versions`, changed)).status, 404);
});

test('given, then bills held against it: a provider $400 or more above is flagged', async () => {
  const made = await server.post(PATH, completeGfe());
  const early = await server.post(`${PATH}/${made.body.id}/billed-check`, { bills: [{ npi: VALID_NPI, billed_cents: 1 }] });
  assert.equal(early.status, 400);
  assert.match(early.body.message, /was given to the client/);
  const given = await server.post(`${PATH}/${made.body.id}/given`, {});
  assert.equal(given.status, 200);
  assert.deepEqual([given.body.status, given.body.given_on], ['given', TEST_TODAY]);
  assert.match(given.body.given_at, /^\d{4}-\d\d-\d\dT/);
  const again = await server.post(`${PATH}/${made.body.id}/given`, { given_on: '2026-06-16' });
  assert.deepEqual([again.body.status, again.body.given_on], ['given', TEST_TODAY], 'recording it again changes nothing');
  const check = await server.post(`${PATH}/${made.body.id}/billed-check`, {
    bills: [
      { npi: VALID_NPI, billed_cents: 380000 + 39999 },
      { npi: CO_PROVIDER_NPI, billed_cents: 36000 + 40000 },
    ],
  });
  assert.equal(check.status, 200, JSON.stringify(check.body));
  assert.deepEqual(
    check.body.providers.map((p: any) => [p.npi, p.estimated_cents, p.over_cents, p.disputable]),
    [
      [VALID_NPI, 380000, 39999, false],
      [CO_PROVIDER_NPI, 36000, 40000, true],
    ],
  );
  assert.deepEqual([check.body.version, check.body.threshold_cents, check.body.any_disputable], [1, 40000, true]);
  // A new draft after it: the bills are still held against the version given.
  const changed = completeGfe();
  changed.co_providers = [];
  await server.post(`${PATH}/${made.body.id}/versions`, changed);
  const still = await server.post(`${PATH}/${made.body.id}/billed-check`, { bills: [{ npi: CO_PROVIDER_NPI, billed_cents: 76000 }] });
  assert.deepEqual([still.body.version, still.body.any_disputable], [1, true]);
});

test('the list: current versions with due dates, overdue drafts first', async () => {
  const late = completeGfe();
  late.client = { first_name: 'Jordan', last_name: 'Reyes', dob: '1990-01-01' };
  late.scheduled_on = '2026-06-01';
  late.primary_service!.scheduled_date = '2026-06-10';
  late.period_of_care = { start: '2026-06-10', end: '2026-09-30' };
  const made = await server.post(PATH, late);
  assert.equal(made.status, 201, JSON.stringify(made.body));
  assert.deepEqual([made.body.due.date, made.body.overdue], ['2026-06-02', true]);
  const list = await server.get(PATH);
  assert.equal(list.status, 200);
  const first = list.body.estimates[0];
  assert.deepEqual([first.id, first.client_name, first.overdue, first.due_date], [made.body.id, 'Jordan Reyes', true, '2026-06-02']);
  assert.ok(list.body.estimates.every((e: any) => e.status !== 'superseded'));
  const dues = list.body.estimates.filter((e: any) => !e.overdue).map((e: any) => e.due_date ?? '9999');
  assert.deepEqual(dues, [...dues].sort());
});

test("a service without a charge takes the key's fee schedule", async () => {
  const key = await server.runtime.keys.verify(TEST_KEY);
  const store = new GfeStore(server.runtime.db, new SealedText(DataKey.fromBytes(Buffer.from(DATA_KEY, 'hex'))));
  await store.importFees(
    ownerOf(key!),
    [
      { code: '90837', modifier: null, charge_cents: 16000 },
      { code: '90837', modifier: '95', charge_cents: 15500 },
    ],
    '2026-06-15T00:00:00.000Z',
  );
  const body = completeGfe();
  body.convening_provider!.services = [
    { code: '90837', quantity: 2 },
    { code: '90837', modifier: '95', quantity: 1 },
  ];
  const r = await server.post(PATH, body);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.deepEqual(
    r.body.providers[0].services.map((s: any) => [s.charge_cents, s.charge_source, s.total_cents]),
    [
      [16000, 'fee_schedule', 32000],
      [15500, 'fee_schedule', 15500],
    ],
  );
  body.convening_provider!.services = [{ code: '90791', quantity: 1 }];
  const unpriced = await server.post(PATH, body);
  assert.equal(unpriced.status, 400);
  assert.deepEqual(unpriced.body.errors, [
    { field: 'convening_provider.services[0].charge_cents', message: `missing ${REQUIRED_ELEMENTS.service_codes_and_charges.what}` },
  ]);
});

test('another key sees none of them; they are sealed at rest and audited by keyed hash', async () => {
  const mine = await server.post(PATH, completeGfe());
  const other = await server.runtime.keys.create({ name: 'other practice', env: 'sandbox' });
  const theirs = await server.get(PATH, { apikey: other.secret });
  assert.deepEqual(theirs.body, { estimates: [] });
  assert.equal((await server.get(`${PATH}/${mine.body.id}`, { apikey: other.secret })).status, 404);
  assert.equal((await server.post(`${PATH}/${mine.body.id}/given`, {}, { apikey: other.secret })).status, 404);
  const rows = await server.runtime.db.kysely.selectFrom('good_faith_estimates').selectAll().execute();
  assert.ok(rows.length > 0);
  for (const r of rows) {
    assert.match(r.payload, /^v1\./, 'sealed');
    assert.doesNotMatch(JSON.stringify(r), /Avery|Walsh|1988-03-14|Jordan/);
    assert.match(r.client_hash, /^[0-9a-f]{64}$/);
  }
  await server.runtime.audit.flush?.();
  const audited = await server.runtime.db.kysely.selectFrom('audit_events').select(['member_hash', 'request_id']).where('endpoint', '=', 'gfe').execute();
  const hashes = new Set(rows.map((r) => r.client_hash));
  assert.ok(audited.some((a) => a.member_hash !== null && hashes.has(a.member_hash)));
  assert.equal(audited.filter((a) => a.member_hash === null).length >= 2, true, 'the lists, naming no one');
});

/**
 * The remittance loop through HTTP: estimates answered, an 835 for those sessions, each line matched
 * and compared, the remittance read back, the accuracy report, the audit records and sealed storage
 * (docs/remittances.md).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { claimOf, remittance835, serviceLine } from '../helpers/remittance-835.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { VALID_NPI } from '../helpers/requests.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer({ env: { COVERAGE_DATA_KEY: '7a'.repeat(32) } });
});
after(() => server.close());

const AVERY = { member_id: '10010MHNA', member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14' };
const MARCUS = { member_id: '10011MHDM', member_first_name: 'Marcus', member_last_name: 'Bell', member_dob: '1979-11-02' };

async function estimate(member: typeof AVERY, extra: Record<string, unknown> = {}) {
  const r = await server.post('/v1/estimate', { ...member, provider_npi: VALID_NPI, provider_session_cost: 15000, procedure_code: '90837', ...extra });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body;
}

const x12 = { 'content-type': 'application/edi-x12' };

test('an 835 for the sessions estimated: exact, under-collected with its cause, unmatched with its reason; read back; counted', async () => {
  const avery = await estimate(AVERY);
  assert.equal(avery.member_obligation, 3000);
  const stranger = { member_id: 'ZZ999999', member_first_name: 'Nobody', member_last_name: 'Known', member_dob: '1990-01-01' };
  const file = remittance835(avery.payer_id, [
    // Paid as estimated: the $30 copay (PR 3), the payer the rest.
    claimOf('C1', AVERY, [serviceLine('90837', 15000, 12000, [{ group: 'PR', reason: '3', amount_cents: 3000, quantity: null }], 15000)]),
    // Another procedure the same day: no estimate priced it.
    claimOf('C2', AVERY, [serviceLine('90791', 20000, 16000, [{ group: 'PR', reason: '3', amount_cents: 4000, quantity: null }])]),
    // A member never estimated.
    claimOf('C3', stranger, [serviceLine('90837', 15000, 11000, [{ group: 'PR', reason: '3', amount_cents: 4000, quantity: null }])]),
  ]);
  const r = await server.post('/v1/remittances', file, x12);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.equal(r.headers.get('location'), `/v1/remittances/${r.body.id}`);
  assert.deepEqual([r.body.claims, r.body.service_lines, r.body.matched, r.body.unmatched], [3, 3, 1, 2]);
  const [exact, other, stranger_] = r.body.lines;
  assert.equal(exact.comparison.verdict, 'exact');
  assert.deepEqual(exact.comparison.member_share, { deductible: 0, coinsurance: 0, copay: 3000, other: 0, total: 3000 });
  assert.equal(exact.comparison.estimated_payer, 12000);
  assert.equal(exact.matched_by, 'procedure');
  assert.match(other.unmatched_reason, /priced other procedures \(90837\)/);
  assert.match(stranger_.unmatched_reason, /no estimate was kept for this member, payer and date of service/);

  const back = await server.get(`/v1/remittances/${r.body.id}`);
  assert.equal(back.status, 200);
  assert.deepEqual(back.body, r.body);

  // A copay raised since the check: the desk collected $10 too little.
  const raised = remittance835(avery.payer_id, [
    claimOf('C4', AVERY, [serviceLine('90837', 15000, 11000, [{ group: 'PR', reason: '3', amount_cents: 4000, quantity: null }], 15000)]),
  ]);
  const second = await server.post('/v1/remittances', raised, { 'content-type': 'text/plain' });
  assert.equal(second.status, 201);
  const c = second.body.lines[0].comparison;
  assert.equal(c.verdict, 'under_collected');
  assert.equal(c.difference, 1000);
  assert.deepEqual(c.causes, ['copay differs']);

  const report = await server.get(`/v1/accuracy?payer_id=${avery.payer_id}`);
  assert.equal(report.status, 200);
  const payer = report.body.payers[0];
  assert.deepEqual([payer.payer_id, payer.lines, payer.compared, payer.exact, payer.off, payer.under_collected_cents], [avery.payer_id, 2, 2, 1, 1, 1000]);
  assert.deepEqual(payer.causes, [{ cause: 'copay differs', lines: 1 }]);
  assert.equal(payer.plans[0].group_id, avery.group_id);
  assert.equal(payer.weeks.length, 1);
});

test('a coinsurance-after-deductible session: the deductible met since the check is named, and a lower allowed amount is not a benefits error', async () => {
  const marcus = await estimate(MARCUS);
  assert.ok(marcus.member_obligation > 0, JSON.stringify(marcus));
  // The payer allowed $100 of the $150: the estimate's own rule at $100 is what the member owes.
  const first = await server.post('/v1/remittances', remittance835(marcus.payer_id, [claimOf('M1', MARCUS, [serviceLine('90837', 15000, 0, [], 10000)])]), x12);
  const c = first.body.lines[0].comparison;
  assert.notEqual(c.at_allowed, null);
  // A line whose PR equals the rule at the allowed amount is a fee-schedule difference, not a benefits error.
  const atAllowed = c.at_allowed as number;
  const fee = await server.post(
    '/v1/remittances',
    remittance835(marcus.payer_id, [
      claimOf('M2', MARCUS, [
        serviceLine(
          '90837',
          15000,
          10000 - atAllowed,
          [
            { group: 'CO', reason: '45', amount_cents: 5000, quantity: null },
            { group: 'PR', reason: '1', amount_cents: atAllowed, quantity: null },
          ],
          10000,
        ),
      ]),
    ]),
    x12,
  );
  const f = fee.body.lines[0].comparison;
  assert.ok(f.causes.includes('the allowed amount differs from the session cost (fee schedule)'), JSON.stringify(f));
  assert.ok(c.estimated_parts.deductible > 0, JSON.stringify(c.estimated_parts));
  {
    // Less deductible than estimated: more was met between the check and the claim.
    const progressed = await server.post(
      '/v1/remittances',
      remittance835(marcus.payer_id, [
        claimOf('M3', MARCUS, [serviceLine('90837', 15000, 15000 - 1000, [{ group: 'PR', reason: '2', amount_cents: 1000, quantity: null }], 15000)]),
      ]),
      x12,
    );
    assert.ok(progressed.body.lines[0].comparison.causes.includes('deductible progressed since the check'), JSON.stringify(progressed.body.lines[0]));
  }
});

test('bad input: an unreadable 835 is a 400 naming the segment; JSON is refused; an unknown payer_id names itself; another key sees nothing', async () => {
  const bad = await server.post('/v1/remittances', 'ISA*00*nonsense', x12);
  assert.equal(bad.status, 400);
  assert.match(bad.body.message, /^The body is not a readable 835: /);
  const json = await server.post('/v1/remittances', { x: 1 });
  assert.equal(json.status, 415);
  const unknown = await server.post('/v1/remittances?payer_id=NO-SUCH-PAYER', remittance835('X', []), x12);
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error_code, 'PAYER_NOT_SUPPORTED');
  const missing = await server.get('/v1/remittances/rem_0000');
  assert.equal(missing.status, 404);
  const other = await server.runtime.keys.create({ name: 'other practice', env: 'sandbox' });
  const theirs = await server.get('/v1/accuracy', { apikey: other.secret });
  assert.equal(theirs.status, 200);
  assert.deepEqual(theirs.body, { payers: [] });
});

test('kept estimates and remittances are sealed at rest; the audit names each claim by keyed hash, before the answer', async () => {
  const rows = await server.runtime.db.kysely.selectFrom('estimate_records').select(['payload', 'member_id_hash']).execute();
  assert.ok(rows.length > 0);
  for (const r of rows) {
    assert.match(r.payload, /^v1\./, 'sealed');
    assert.doesNotMatch(r.member_id_hash, /10010MHNA|10011MHDM/);
  }
  for (const r of await server.runtime.db.kysely.selectFrom('remittances').select('payload').execute()) assert.match(r.payload, /^v1\./);
  await server.runtime.audit.flush?.();
  const audited = await server.runtime.db.kysely
    .selectFrom('audit_events')
    .select(['endpoint', 'member_hash', 'status'])
    .where('endpoint', '=', 'remittance')
    .execute();
  assert.ok(audited.length >= 4, `${audited.length} remittance audit records`);
  for (const a of audited) assert.match(a.member_hash ?? '', /^[0-9a-f]{64}$/);
});

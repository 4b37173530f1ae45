/** `explain: true` on /v1/estimate: where each figure came from, only when asked (docs/estimates.md section 1.6). */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { VALID_NPI } from '../helpers/requests.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const avery = {
  member_id: '10010MHNA',
  member_first_name: 'Avery',
  member_last_name: 'Walsh',
  member_dob: '1988-03-14',
  provider_npi: VALID_NPI,
  provider_session_cost: '15000',
};

test('explain: true adds the EB and rule of each figure and the steps of the member share', async () => {
  const { status, body } = await server.post('/v1/estimate', { ...avery, explain: true });
  assert.equal(status, 200);
  const copay = body.explanation.benefits.find((e: { figure: string; network: string }) => e.figure === 'copayment' && e.network === 'in');
  assert.ok(copay, JSON.stringify(body.explanation.benefits));
  assert.match(copay.eb, /^EB\*B\*\*[^*]+\*\*\*27\*30\*/);
  assert.ok(Number.isInteger(copay.segment) && copay.segment > 1);
  assert.match(copay.rule, /most specific service type with a cost share/);
  assert.match(body.explanation.obligation.at(-1), /member pays \$30\.00, payer \$120\.00/);
  assert.equal(body.member_obligation, 3000);
});

test('without explain the response carries no explanation, and the figures are the same', async () => {
  const plain = await server.post('/v1/estimate', avery);
  const explained = await server.post('/v1/estimate', { ...avery, explain: true });
  assert.equal('explanation' in plain.body, false);
  const { explanation: _e, request_id: _a, ...rest } = explained.body;
  const { request_id: _b, ...plainRest } = plain.body;
  assert.deepEqual(rest, plainRest);
});

type Entry = {
  figure: string;
  network: string | null;
  eb: string | null;
  rule: string;
  administrator?: string;
  service_type: string | null;
  coverage_level: string | null;
  time_period: string | null;
};
const member = (member_id: string, first: string, last: string, dob: string) => ({
  member_id,
  member_first_name: first,
  member_last_name: last,
  member_dob: dob,
  provider_npi: VALID_NPI,
  provider_session_cost: '15000',
  explain: true,
});

test('a deductible waived by MSG says so, with the EB elements of each figure', async () => {
  const { status, body } = await server.post('/v1/estimate', member('10120MHDM', 'Lucia', 'Romano', '1989-10-27'));
  assert.equal(status, 200);
  const benefits: Entry[] = body.explanation.benefits;
  const applies = benefits.find((e) => e.figure === 'deductible applies: no' && e.network === 'in')!;
  assert.match(applies.rule, /MSG says so: "DEDUCTIBLE WAIVED"/);
  const remaining = benefits.find((e) => e.figure === 'deductible individual remaining' && e.network === 'in')!;
  assert.deepEqual([remaining.service_type, remaining.coverage_level, remaining.time_period], ['MH', 'IND', '29']);
  assert.equal(body.member_obligation, 3000);
  assert.ok(body.explanation.obligation.includes('the deductible does not hold this cost share: it applies from the first session'));
});

test('QMB: the member owes $0, and the explanation says why', async () => {
  const { body } = await server.post('/v1/estimate', { ...member('10073MHOMCD', 'Walter', 'Pruitt', '1949-09-27'), payer_id: 'SBX-MCD-FL' });
  assert.equal(body.member_obligation, 0);
  assert.match(body.explanation.obligation[0], /^QMB: the member owes \$0/);
  assert.ok(body.explanation.benefits.some((e: Entry) => e.figure === 'insurance type: qmb'));
});

test("a carve-out: the administrator's own EBs are traced and price the session", async () => {
  const { status, body } = await server.post('/v1/estimate', member('10040MHCA', 'Maya', 'Goldberg', '1993-03-19'));
  assert.equal(status, 200);
  const benefits: Entry[] = body.explanation.benefits;
  assert.ok(
    benefits.some((e) => e.figure === 'carve-out' && e.administrator === undefined),
    'the medical plan names the administrator',
  );
  const copay = benefits.find((e) => e.figure === 'copayment' && e.network === 'in' && e.administrator === 'SBX-MINDFUL');
  assert.ok(copay, JSON.stringify(benefits));
  assert.match(copay.eb!, /^EB\*B\*\*MH\*\*\*27\*25\*/);
  assert.equal(body.copayment, 2500);
  assert.match(body.explanation.obligation.at(-1), /member pays \$25\.00, payer \$125\.00/);
});

test('discover with explain: true carries the benefits it was read from; without it, none', async () => {
  const request = { member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14', zip: '10001', payer_id: 'SBX-EVERGREEN' };
  const plain = await server.post('/v1/discover', request);
  assert.equal(plain.status, 200);
  assert.equal('explanation' in plain.body, false);
  const explained = await server.post('/v1/discover', { ...request, explain: true });
  assert.equal(explained.status, 200);
  const benefits: Entry[] = explained.body.explanation.benefits;
  assert.match(benefits.find((e) => e.figure === 'copayment' && e.network === 'in')!.eb!, /^EB\*B\*\*MH\*\*\*27\*30\*/);
  assert.ok(benefits.some((e) => e.figure === 'insurance type: commercial'));
  assert.deepEqual(explained.body.explanation.obligation, []);
  const { explanation: _e, request_id: _a, ...rest } = explained.body;
  const { request_id: _b, ...plainRest } = plain.body;
  assert.deepEqual(rest, plainRest);
});

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

/**
 * An `optum` connection against the Optum simulator: OAuth token reuse and refresh, JSON v3 read into
 * our Coverage, raw X12 when set; every request and answer held to Optum's schema; the controlNumber
 * rule (strict in production, a sandbox's fixed one accepted on a test connection); Optum refusing
 * our request is the caller's 400, not the payer's failure.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { vendorDirectory } from '../../src/payers/simulator/vendors/directory.ts';
import { OPTUM_CLIENT_ID_ENV, OPTUM_CLIENT_SECRET_ENV, OptumSimulator } from '../../src/payers/simulator/vendors/optum.ts';
import { OPTUM_SANDBOX_CONTROL_NUMBER, OPTUM_TOKEN_PATH } from '../../src/payers/vendors/optum.ts';
import { OptumAuthRequest, OptumEligibilityRequest, OptumEligibilityResponse, schemaProblems } from '../../src/payers/vendors/optum-schema.ts';
import { sandboxMemberTable } from '../../src/sandbox/member-table.ts';
import { requestFor } from '../helpers/requests.ts';
import { TEST_TODAY, type TestServer } from '../helpers/server.ts';
import { ManualClock, onDay } from '../helpers/clock.ts';
import { estimateFor, serveDirectory } from './setup.ts';

const avery = (i = 0) => estimateFor('SBX-EVERGREEN', i === 0 ? '10010MHNA' : `2${String(i).padStart(4, '0')}MHNA`, 'Avery', 'Walsh', '1988-03-14');

for (const format of ['json', 'x12'] as const) {
  describe(`optum connection (${format})`, () => {
    let sim: OptumSimulator;
    let server: TestServer;
    before(async () => {
      // The JSON answers carry no raw 271: the client must read the JSON itself.
      sim = await OptumSimulator.start({ clock: onDay(TEST_TODAY), omitX12: true });
      const directory = vendorDirectory([{ name: 'optum', sim }]);
      if (format === 'x12') directory.connections![0]!.format = 'x12';
      server = await serveDirectory(directory);
    });
    after(async () => {
      await server?.close();
      await sim?.close();
    });

    test('a check answers as the catalog does, with the route named', async () => {
      const res = await server.post('/v1/estimate', avery());
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.copayment, 3000);
      assert.equal(res.body.plan_status, 'ACTIVE');
      assert.equal(res.body.route, 'optum');
      assert.equal(res.body.demographics.member_id, '10010MHNA');
    });

    test('one token serves many checks; an expired token is refreshed once', async () => {
      const before = sim.stats.token_requests;
      const all = await Promise.all(Array.from({ length: 6 }, (_, i) => server.post('/v1/estimate', avery(i + 1))));
      assert.deepEqual(
        all.map((r) => r.status),
        Array(6).fill(200),
      );
      assert.ok(before <= 1 && sim.stats.token_requests === before, `token requests ${before} -> ${sim.stats.token_requests}`);
      sim.expireTokens();
      const requests = sim.stats.requests;
      const res = await server.post('/v1/estimate', avery(9));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(sim.stats.token_requests, before + 1, 'one new token after the 401');
      assert.equal(sim.stats.requests, requests + 2, 'the refused call and its retry with the new token');
    });

    test('a payer rejection in a 200 body (AAA 75) is the member not found, with payer_errors', async () => {
      const res = await server.post('/v1/estimate', estimateFor('SBX-EVERGREEN', '99999MHMNF', 'Nobody', 'Here', '1970-01-01'));
      assert.equal(res.status, 404, JSON.stringify(res.body));
      assert.equal(res.body.error_code, 'MEMBER_NOT_FOUND');
      assert.equal(res.body.payer_errors[0].category, 'member');
    });
  });
}

test('a token is asked for again once its life (less a margin) is over', async () => {
  // The simulator times its tokens on the same clock as the connection, so a slow machine changes nothing.
  const clock = new ManualClock();
  const sim = await OptumSimulator.start({ tokenTtlSeconds: 1, clock });
  const server = await serveDirectory(vendorDirectory([{ name: 'optum', sim }]), {}, clock);
  try {
    assert.equal((await server.post('/v1/estimate', avery(1))).status, 200);
    assert.equal(sim.stats.token_requests, 1);
    // A 1 s token is renewed 100 ms (10 % of its life) before it ends.
    clock.advance(899);
    assert.equal((await server.post('/v1/estimate', avery(3))).status, 200);
    assert.equal(sim.stats.token_requests, 1, 'still within its life less the margin');
    clock.advance(1);
    assert.equal((await server.post('/v1/estimate', avery(2))).status, 200);
    assert.equal(sim.stats.token_requests, 2);
    assert.equal(sim.stats.requests, 3, 'no call was refused: the token was renewed before it expired');
  } finally {
    await server.close();
    await sim.close();
  }
});

test("every catalog member answers /v1/estimate through the JSON model as in the sandbox, every request and answer in Optum's shape", async () => {
  const answers: { status: number; body: unknown }[] = [];
  const sim = await OptumSimulator.start({ clock: onDay(TEST_TODAY), omitX12: true, onAnswer: (status, body) => answers.push({ status, body }) });
  const server = await serveDirectory(vendorDirectory([{ name: 'optum', sim }]));
  try {
    const rows = sandboxMemberTable().filter((r) => r.payer_id !== '' && r.expectations.estimate);
    const mismatches: string[] = [];
    for (const row of rows) {
      const { status, body } = await server.post('/v1/estimate', requestFor('estimate', row));
      const expected = row.expectations.estimate!;
      if (status !== expected.status || (body.error_code ?? null) !== expected.error_code)
        mismatches.push(`${row.member_id}: ${status} ${body.error_code ?? ''}, expected ${expected.status} ${expected.error_code ?? ''}`);
    }
    assert.deepEqual(mismatches, []);
    assert.ok(rows.length > 20);
    // The simulator refuses (and records) any token or eligibility request that breaks Optum's schema.
    assert.deepEqual(sim.schemaProblems, []);
    assert.ok(answers.length >= rows.length);
    const broken = answers.flatMap((a) => schemaProblems(OptumEligibilityResponse, a.body).map((p) => `HTTP ${a.status} ${p}`));
    assert.deepEqual(broken, []);
    // Optum's own spellings are exercised, not only codes.
    const all = JSON.stringify(answers);
    assert.ok(all.includes('"benefitsRelatedEntity":{'), 'a single related entity');
    assert.ok(all.includes('"entityIdentifier":"Payer"') || all.includes('"entityIdentifier":"Vendor"'), 'entity names');
    assert.ok(all.includes('"followupAction":"Please Correct and Resubmit"'), 'follow-up prose');
    assert.ok(all.includes('"planDateInformation":{'), 'top-level plan dates');
  } finally {
    await server.close();
    await sim.close();
  }
});

test('the schema and the simulator can refuse: a form token request, a request without controlNumber, a non-Optum answer', async () => {
  const sim = await OptumSimulator.start({ clock: onDay(TEST_TODAY) });
  try {
    const form = await fetch(`${sim.baseUrl}${OPTUM_TOKEN_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: 'sim', client_secret: 'sim', grant_type: 'client_credentials' }).toString(),
    });
    assert.equal(form.status, 400);
    const json = await fetch(`${sim.baseUrl}${OPTUM_TOKEN_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: 'sim', client_secret: 'sim', grant_type: 'client_credentials' }),
    });
    assert.equal(json.status, 200);
    const { access_token } = (await json.json()) as { access_token: string };
    const res = await fetch(`${sim.baseUrl}/medicalnetwork/eligibility/v3/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
      body: JSON.stringify({ tradingPartnerServiceId: 'SBX-EVERGREEN', subscriber: { memberId: '10010MHNA', dateOfBirth: '1988-03-14' } }),
    });
    assert.equal(res.status, 400);
    const fields = ((await res.json()) as { errors: { field: string }[] }).errors.map((e) => e.field).sort();
    assert.deepEqual(fields, ['controlNumber', 'subscriber.dateOfBirth']);
    assert.equal(sim.schemaProblems.length, 3);
  } finally {
    await sim.close();
  }
  assert.deepEqual(schemaProblems(OptumAuthRequest, { client_id: 'a', client_secret: 'b', grant_type: 'client_credentials' }), []);
  assert.ok(schemaProblems(OptumEligibilityRequest, { controlNumber: '12345678', subscriber: {} }).includes('controlNumber: must match pattern "^[0-9]{9}$"'));
  assert.ok(schemaProblems(OptumEligibilityResponse, { provider: { lastName: 'X' } }).length > 0, 'ResponseProvider has providerName, not lastName');
});

describe('controlNumber', () => {
  const run = async (test_: boolean) => {
    const sim = await OptumSimulator.start({ clock: onDay(TEST_TODAY), omitX12: true, fixedControlNumber: '401574089' });
    const directory = vendorDirectory([{ name: 'optum', sim }]);
    if (test_) directory.connections![0]!.test = true;
    const server = await serveDirectory(directory);
    try {
      const res = await server.post('/v1/estimate', avery());
      return { res, sent: sim.received.map((r) => r.control_number) };
    } finally {
      await server.close();
      await sim.close();
    }
  };

  test('in production an answer with another controlNumber is refused as belonging to another request', async () => {
    const { res, sent } = await run(false);
    assert.equal(res.status, 502, JSON.stringify(res.body));
    assert.equal(res.body.error_code, 'PAYER_FAILURE');
    assert.match(sent[0]!, /^\d{9}$/);
    assert.notEqual(sent[0], OPTUM_SANDBOX_CONTROL_NUMBER);
  });

  test("on a test connection (Optum's sandbox) the predefined controlNumber is sent and a canned answer's fixed one is accepted", async () => {
    const { res, sent } = await run(true);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.copayment, 3000);
    assert.deepEqual(sent, [OPTUM_SANDBOX_CONTROL_NUMBER]);
  });
});

test("Optum refusing our request (HTTP 400 validation errors) is the caller's 400 INVALID_REQUEST naming our fields, asked once", async () => {
  let calls = 0;
  const fake = createServer((req, res) => {
    if (req.url === OPTUM_TOKEN_PATH)
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 't', token_type: 'bearer', expires_in: 3600 }));
    calls++;
    res.writeHead(400, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        errors: [
          { field: 'subscriber', description: 'Please use predefined canned users for non-prod environments: dateOfBirth was not predefined.' },
          { field: 'subscriber.dateOfBirth', description: 'Invalid date format. Please use the following format: yyyyMMdd.' },
        ],
      }),
    );
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  const closeFake = () => {
    fake.closeAllConnections();
    return new Promise<void>((r) => fake.close(() => r()));
  };
  const server = await serveDirectory({
    submitter: { id: 'COVERAGESVC' },
    connections: [
      { name: 'optum', kind: 'optum', base_url: base, client_id_env: OPTUM_CLIENT_ID_ENV, client_secret_env: OPTUM_CLIENT_SECRET_ENV, timeout_ms: 5000 },
    ],
    payers: [{ payer_id: 'SBX-EVERGREEN', name: 'Evergreen', supports_search: true, routes: [{ connection: 'optum', payer_id: 'SBX-EVERGREEN' }] }],
  }).catch(async (err: unknown) => {
    await closeFake();
    throw err;
  });
  try {
    const res = await server.post('/v1/estimate', avery());
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error_code, 'INVALID_REQUEST');
    assert.deepEqual(
      res.body.errors?.map((e: { field: string }) => e.field),
      ['member_dob'],
    );
    assert.ok(!JSON.stringify(res.body).includes('canned'), "the vendor's prose is not passed on");
    assert.equal(calls, 1, 'not retried');
  } finally {
    await server.close();
    await closeFake();
  }
});

/**
 * The rehearsal of docs/going-live.md (Optum) against a stand-in for Optum's sandbox: it takes only
 * predefined values (Optum's published sandbox list) and answers the canned bodies captured from the
 * real sandbox (test/fixtures/change-healthcare/), with their own fixed controlNumber.
 */
test('the documented Optum sandbox rehearsal succeeds against canned answers with fixed control numbers', async () => {
  const predefined = {
    controlNumber: ['000000001', '000000002', '000000003', '000000004', '123456789'],
    memberId: ['0000000000', '0000000001', '0000000002', '1234567890', '0000000004', '0000000005', '0000000006', '0000000007', '123456789'],
    firstName: ['johnone', 'johntwo', 'janeone', 'janetwo'],
    lastName: ['doeone', 'doetwo'],
    dateOfBirth: ['18800102', '18800101', '18160421', '19800101', '19800102', '20000101', '20000102'],
  };
  const sandbox = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.url === OPTUM_TOKEN_PATH) return send(200, { access_token: 'sandbox-token', token_type: 'bearer', expires_in: 3600 });
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        controlNumber?: string;
        tradingPartnerServiceId?: string;
        subscriber?: Record<string, string>;
      };
      const sub = body.subscriber ?? {};
      const wrong = [
        predefined.controlNumber.includes(body.controlNumber ?? '') ? null : 'controlNumber',
        predefined.memberId.includes(sub.memberId ?? '') ? null : 'subscriber.memberId',
        predefined.firstName.includes((sub.firstName ?? '').toLowerCase()) ? null : 'subscriber.firstName',
        predefined.lastName.includes((sub.lastName ?? '').toLowerCase()) ? null : 'subscriber.lastName',
        predefined.dateOfBirth.includes(sub.dateOfBirth ?? '') ? null : 'subscriber.dateOfBirth',
      ].filter((f): f is string => f !== null);
      if (wrong.length > 0)
        return send(400, { errors: wrong.map((field) => ({ field, description: 'Please use predefined canned users for non-prod environments' })) });
      send(
        200,
        JSON.parse(readFileSync(new URL(`../fixtures/change-healthcare/${body.tradingPartnerServiceId}.example.response.json`, import.meta.url), 'utf8')),
      );
    });
  });
  await new Promise<void>((r) => sandbox.listen(0, '127.0.0.1', () => r()));
  const closeSandbox = () => {
    sandbox.closeAllConnections();
    return new Promise<void>((r) => sandbox.close(() => r()));
  };
  const base = `http://127.0.0.1:${(sandbox.address() as AddressInfo).port}`;
  const server = await serveDirectory({
    submitter: { id: 'COVERAGESVC', name: 'COVERAGE CLINIC' },
    connections: [
      {
        name: 'optum',
        kind: 'optum',
        base_url: base,
        client_id_env: OPTUM_CLIENT_ID_ENV,
        client_secret_env: OPTUM_CLIENT_SECRET_ENV,
        test: true,
        timeout_ms: 5000,
      },
    ],
    payers: [
      { payer_id: 'OPTUMSBX', name: 'Optum sandbox', supports_search: false, routes: [{ connection: 'optum', payer_id: '000050' }] },
      { payer_id: 'OPTUMSBX41', name: 'Optum sandbox inactive', supports_search: false, routes: [{ connection: 'optum', payer_id: '000041' }] },
    ],
  }).catch(async (err: unknown) => {
    await closeSandbox();
    throw err;
  });
  const member = { member_id: '0000000000', member_first_name: 'johnone', member_last_name: 'doeone', member_dob: '1980-01-01' };
  const provider = { provider_first_name: 'Bob', provider_last_name: 'Bobson', provider_session_cost: '15000' };
  try {
    const active = await server.post('/v1/estimate', { ...member, ...provider, payer_id: 'OPTUMSBX' });
    // 000050 sends a $30 and a $40 (SPECIALIST) office copay: the plan is read, its price is not (docs/estimates.md 1.1).
    assert.equal(active.status, 206, JSON.stringify(active.body));
    assert.equal(active.body.error_code, 'UNKNOWN_COSTSHARE');
    assert.equal(active.body.route, 'optum');
    assert.equal(active.body.plan_status, 'ACTIVE');
    assert.equal(active.body.plan_begin_date, '2003-01-11');
    const inactive = await server.post('/v1/estimate', { ...member, ...provider, payer_id: 'OPTUMSBX41' });
    assert.equal(inactive.body.plan_status, 'INACTIVE', JSON.stringify(inactive.body));
    assert.equal(inactive.body.plan_end_date, '2013-12-12');
    // A value the sandbox does not know is the caller's to fix, named by our field.
    const refused = await server.post('/v1/estimate', { ...member, ...provider, member_dob: '1975-05-05', payer_id: 'OPTUMSBX' });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.deepEqual(
      refused.body.errors?.map((e: { field: string }) => e.field),
      ['member_dob'],
    );
  } finally {
    await server.close();
    await closeSandbox();
  }
});

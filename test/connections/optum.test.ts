/** An `optum` connection against the Optum simulator: OAuth token reuse and refresh, JSON v3 read into our Coverage, raw X12 when set. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { vendorDirectory } from '../../src/payers/simulator/vendors/directory.ts';
import { OptumSimulator } from '../../src/payers/simulator/vendors/optum.ts';
import { sandboxMemberTable } from '../../src/sandbox/member-table.ts';
import { requestFor } from '../helpers/requests.ts';
import { TEST_TODAY, type TestServer } from '../helpers/server.ts';
import { estimateFor, serveDirectory } from './setup.ts';

const avery = (i = 0) => estimateFor('SBX-EVERGREEN', i === 0 ? '10010MHNA' : `2${String(i).padStart(4, '0')}MHNA`, 'Avery', 'Walsh', '1988-03-14');

for (const format of ['json', 'x12'] as const) {
  describe(`optum connection (${format})`, () => {
    let sim: OptumSimulator;
    let server: TestServer;
    before(async () => {
      // The JSON answers carry no raw 271: the client must read the JSON itself.
      sim = await OptumSimulator.start({ today: () => TEST_TODAY, omitX12: true });
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
  const sim = await OptumSimulator.start({ today: () => TEST_TODAY, tokenTtlSeconds: 1 });
  const server = await serveDirectory(vendorDirectory([{ name: 'optum', sim }]));
  try {
    assert.equal((await server.post('/v1/estimate', avery(1))).status, 200);
    assert.equal(sim.stats.token_requests, 1);
    await new Promise((r) => setTimeout(r, 1100));
    assert.equal((await server.post('/v1/estimate', avery(2))).status, 200);
    assert.equal(sim.stats.token_requests, 2);
    assert.equal(sim.stats.requests, 2, 'no call was refused: the token was renewed before it expired');
  } finally {
    await server.close();
    await sim.close();
  }
});

test('every catalog member answers /v1/estimate through the JSON model as in the sandbox', async () => {
  const sim = await OptumSimulator.start({ today: () => TEST_TODAY, omitX12: true });
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
  } finally {
    await server.close();
    await sim.close();
  }
});

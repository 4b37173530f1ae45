/** An `availity` connection against the Availity simulator: form-encoded POST, 202 then polling inside the deadline, JSON read into our Coverage. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AvailitySimulator } from '../../src/payers/simulator/vendors/availity.ts';
import { vendorDirectory } from '../../src/payers/simulator/vendors/directory.ts';
import { sandboxMemberTable } from '../../src/sandbox/member-table.ts';
import { requestFor } from '../helpers/requests.ts';
import { TEST_TODAY } from '../helpers/server.ts';
import { estimateFor, serveDirectory } from './setup.ts';

async function withAvaility(
  pendingPolls: number,
  env: Record<string, string>,
  run: (sim: AvailitySimulator, post: (body: unknown) => Promise<{ status: number; body: any }>) => Promise<void>,
) {
  const sim = await AvailitySimulator.start({ today: () => TEST_TODAY, pendingPolls });
  const directory = vendorDirectory([{ name: 'availity', sim }]);
  directory.connections![0]!.poll_initial_ms = 20;
  directory.connections![0]!.retry = { max_attempts: 0 };
  const server = await serveDirectory(directory, env);
  try {
    await run(sim, (body) => server.post('/v1/estimate', body));
  } finally {
    await server.close();
    await sim.close();
  }
}

const avery = (i = 0) => estimateFor('SBX-EVERGREEN', i === 0 ? '10010MHNA' : `3${String(i).padStart(4, '0')}MHNA`, 'Avery', 'Walsh', '1988-03-14');

test('202 then polls: the answer arrives, read from Availity JSON; one token for many checks', async () => {
  await withAvaility(2, {}, async (sim, post) => {
    const res = await post(avery());
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.copayment, 3000);
    assert.equal(res.body.route, 'availity');
    assert.equal(sim.polls, 3, 'two answered 202, the third the coverage');
    const more = await Promise.all([1, 2, 3].map((i) => post(avery(i))));
    assert.deepEqual(
      more.map((r) => r.status),
      [200, 200, 200],
    );
    assert.equal(sim.stats.token_requests, 1);
  });
});

test('polling stops at the deadline: the check fails as the payer not answering in time', async () => {
  await withAvaility(1000, { COVERAGE_PAYER_TIMEOUT_MS: '700' }, async (sim, post) => {
    const res = await post(avery());
    assert.equal(res.status, 502, JSON.stringify(res.body));
    assert.equal(res.body.error_code, 'PAYER_FAILURE');
    const polls = sim.polls;
    assert.ok(polls >= 2, `polled ${polls} times`);
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(sim.polls, polls, 'no poll after the deadline');
  });
});

test('every catalog member answers /v1/estimate through Availity JSON as in the sandbox', async () => {
  await withAvaility(0, {}, async (_sim, post) => {
    const rows = sandboxMemberTable().filter((r) => r.payer_id !== '' && r.expectations.estimate);
    const mismatches: string[] = [];
    for (const row of rows) {
      const { status, body } = await post(requestFor('estimate', row));
      const expected = row.expectations.estimate!;
      if (status !== expected.status || (body.error_code ?? null) !== expected.error_code)
        mismatches.push(`${row.member_id}: ${status} ${body.error_code ?? ''}, expected ${expected.status} ${expected.error_code ?? ''}`);
    }
    assert.deepEqual(mismatches, []);
  });
});

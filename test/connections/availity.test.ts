/** An `availity` connection against the Availity simulator: form-encoded POST, 202 then polling inside the deadline, JSON read into our Coverage. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Value } from 'typebox/value';
import type { TSchema } from 'typebox';
import { AvailitySimulator, type AvailitySimOptions } from '../../src/payers/simulator/vendors/availity.ts';
import { AvailityCoverage, AvailityCoverageForm, AvailityCoverageSummary, AvailityErrorResponse } from '../../src/payers/vendors/availity-schema.ts';
import { vendorDirectory } from '../../src/payers/simulator/vendors/directory.ts';
import { sandboxMemberTable } from '../../src/sandbox/member-table.ts';
import { requestFor } from '../helpers/requests.ts';
import { TEST_TODAY } from '../helpers/server.ts';
import { ManualClock, onDay } from '../helpers/clock.ts';
import { estimateFor, serveDirectory } from './setup.ts';

async function withAvaility(
  pendingPolls: number,
  env: Record<string, string>,
  run: (sim: AvailitySimulator, post: (body: unknown, path?: string) => Promise<{ status: number; body: any }>) => Promise<void>,
  observe?: AvailitySimOptions['observe'],
  more: Partial<AvailitySimOptions> = {},
  clock?: ManualClock,
) {
  const sim = await AvailitySimulator.start({ clock: onDay(TEST_TODAY), pendingPolls, ...(observe ? { observe } : {}), ...more });
  const directory = vendorDirectory([{ name: 'availity', sim }]);
  directory.connections![0]!.poll_initial_ms = 20;
  directory.connections![0]!.retry = { max_attempts: 0 };
  const server = await serveDirectory(directory, env, clock);
  try {
    await run(sim, (body, path = '/v1/estimate') => server.post(path, body));
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
  const clock = new ManualClock();
  // Never ready: the waits between polls are on the manual clock and end at once, so only the
  // deadline (wall time) can end the exchange, however fast the machine polls.
  await withAvaility(
    Number.MAX_SAFE_INTEGER,
    { COVERAGE_PAYER_TIMEOUT_MS: '700' },
    async (sim, post) => {
      let res: { status: number; body: any } | undefined;
      const answered = post(avery()).then((r) => (res = r));
      // Each wait between polls ends as soon as it starts, until the deadline ends the exchange.
      const waits: number[] = [];
      while (!res) {
        await Promise.race([clock.asleep(), answered]);
        if (clock.sleeping === 0) continue;
        const before = clock.now();
        clock.advanceToNextSleep();
        waits.push(clock.now() - before);
      }
      assert.equal(res.status, 502, JSON.stringify(res.body));
      assert.equal(res.body.error_code, 'PAYER_FAILURE');
      const polls = sim.polls;
      assert.ok(polls >= 2, `polled ${polls} times`);
      assert.deepEqual(waits.slice(0, 2), [20, 40], 'the waits grow by the documented steps from poll_initial_ms');
      // The deadline cancelled the wait in progress, and an aborted exchange starts no other:
      // however far time moves now, nothing polls.
      assert.equal(clock.sleeping, 0, 'no wait left pending');
      clock.advance(10 * 60_000);
      await new Promise((r) => setImmediate(r));
      assert.equal(sim.polls, polls, 'no poll after the deadline');
    },
    undefined,
    {},
    clock,
  );
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

/** Schema errors of a value, as "path message" lines (empty when it is of the schema). */
const schemaErrors = (schema: TSchema, value: unknown) => [...Value.Errors(schema, value)].map((e) => `${e.instancePath} ${e.message}`);

test("every request the connector sends and every answer the simulator gives are of Availity's published schema", async () => {
  const seen: { form?: Record<string, string>; status: number; body: unknown }[] = [];
  await withAvaility(
    1,
    {},
    async (_sim, post) => {
      for (const row of sandboxMemberTable().filter((r) => r.payer_id !== '')) {
        await post(requestFor('estimate', row));
        if (row.first_name && row.last_name) await post(requestFor('discover', row), '/v1/discover');
      }
      await post(estimateFor('SBX-EVERGREEN', '10010MHNA', '', '', '1988-03-14'));
    },
    (e) => seen.push(e),
  );
  const wrong: string[] = [];
  for (const [i, e] of seen.entries()) {
    if (e.form) wrong.push(...schemaErrors(AvailityCoverageForm, e.form).map((m) => `request ${i}: ${m}`));
    const schema = e.status === 200 ? AvailityCoverage : e.status === 202 ? AvailityCoverageSummary : AvailityErrorResponse;
    wrong.push(...schemaErrors(schema, e.body).map((m) => `answer ${i} (${e.status}): ${m}`));
  }
  assert.deepEqual(wrong, []);
  const statuses = new Set(seen.map((e) => e.status));
  for (const s of [200, 202, 400]) assert.ok(statuses.has(s), `answered ${s} at least once`);
  // Not an empty pass: the complete answers carry plans with benefits and their amounts by network.
  const amounts = seen.filter((e) => e.status === 200 && JSON.stringify(e.body).includes('"amounts":{'));
  assert.ok(amounts.length > 10, `${amounts.length} answers with amounts`);
  assert.ok(seen.some((e) => e.status === 200 && /"inNetwork":\[\{[^\]]*"amount":"30(\.00)?"/.test(JSON.stringify(e.body))));
});

test('issue 22 through the wire: the active member with a $30 MH copay is active and owes the copay', async () => {
  await withAvaility(0, {}, async (_sim, post) => {
    const res = await post(avery());
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.coverage_status, 'active');
    assert.equal(res.body.mental_health_coverage, 'active');
    assert.equal(res.body.copayment, 3000);
    assert.equal(res.body.member_obligation, 3000, 'the copay, not the $150 session');
    assert.equal(res.body.demographics.dob, '1988-03-14');
    assert.match(res.body.plan_begin_date, /^\d{4}-\d{2}-\d{2}$/);
  });
});

test('a POST answered 200 is a summary: the whole coverage is read by id, at once', async () => {
  const statuses: number[] = [];
  await withAvaility(
    0,
    {},
    async (sim, post) => {
      const res = await post(avery());
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.copayment, 3000);
      assert.equal(sim.polls, 1, 'one GET of the whole coverage');
    },
    (e) => {
      statuses.push(e.status);
      assert.deepEqual(
        schemaErrors(e.status === 200 && e.form ? AvailityCoverageSummary : e.status === 200 ? AvailityCoverage : AvailityErrorResponse, e.body),
        [],
      );
    },
    { doneOnPost: true },
  );
  assert.deepEqual(statuses, [200, 200]);
});

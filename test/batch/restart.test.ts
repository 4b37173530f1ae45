/**
 * Stopping the service in the middle of a batch: after a graceful stop (SIGTERM) or a kill, the
 * next start finishes the batch, and every row appears exactly once in the results. On
 * PostgreSQL as well when DATABASE_URL is set. A kill -9 leaves no finished row without its audit
 * record (issue 17, finding 4).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { startServer, type ServerProcess } from '../support/processes.ts';
import { onEachStore, type TestStore } from '../support/stores.ts';
import { waitForBatch } from './helpers.ts';

const ROWS = 1500;
/** One row at a time and a short lease: slow enough to stop mid-batch, quick to take back a dead worker's row. */
const BATCH_ENV = { COVERAGE_BATCH_CONCURRENCY: '1', COVERAGE_BATCH_PER_PAYER: '1', COVERAGE_BATCH_LEASE_MS: '1000', COVERAGE_BATCH_POLL_MS: '100' };

function schedule(): { checks: unknown[] } {
  return {
    checks: Array.from({ length: ROWS }, (_, i) => ({
      endpoint: 'estimate',
      request: {
        member_id: `${i + 1}MH${i % 10 === 0 ? 'MNF' : 'NA'}`,
        member_first_name: '',
        member_last_name: '',
        member_dob: '1980-01-01',
        provider_session_cost: '15000',
      },
    })),
  };
}

async function stopMidBatch(store: TestStore, stop: (server: ServerProcess) => Promise<unknown>) {
  const key = `cov_test_${randomBytes(16).toString('hex')}`;
  const env = { ...store.env, ...BATCH_ENV, COVERAGE_DEV_KEY: key };
  const first = await startServer(env);
  let id: string;
  let doneAtStop: number;
  try {
    const res = await fetch(`${first.url}/v1/batches`, {
      method: 'POST',
      headers: { apikey: key, 'content-type': 'application/json' },
      body: JSON.stringify(schedule()),
    });
    assert.equal(res.status, 202);
    id = ((await res.json()) as { id: string }).id;
    doneAtStop = (await waitForBatch(first.url, key, id, { until: (p) => p.done >= 50 })).done;
    await stop(first);
  } finally {
    await first.stop();
  }

  const db = await store.open();
  const left = await db.kysely.selectFrom('batch_rows').select('state').where('batch_id', '=', id).where('state', '!=', 'done').execute();
  assert.ok(left.length > 0 && left.length <= ROWS - doneAtStop, `stopped in the middle: ${left.length} rows left`);
  const finishedAtStop = (await db.kysely.selectFrom('batch_rows').select('row_no').where('batch_id', '=', id).where('state', '=', 'done').execute()).map(
    (r) => `${id}.${r.row_no}`,
  );
  const auditedAtStop = (await db.kysely.selectFrom('audit_events').select('request_id').where('request_id', 'like', `${id}.%`).execute()).map(
    (a) => a.request_id,
  );

  const second = await startServer(env);
  try {
    const progress = await waitForBatch(second.url, key, id, { stallPolls: 1800 });
    assert.equal(progress.done, ROWS);
    assert.deepEqual(
      progress.outcomes.map((o: any) => [o.outcome, o.count]),
      [
        ['OK', ROWS * 0.9],
        ['MEMBER_NOT_FOUND', ROWS * 0.1],
      ],
    );
    const res = await fetch(`${second.url}/v1/batches/${id}/results`, { headers: { apikey: key } });
    const { results } = (await res.json()) as { results: { row: number; state: string; status: number; request: { member_id: string } }[] };
    assert.deepEqual(
      results.map((r) => r.row),
      Array.from({ length: ROWS }, (_, i) => i + 1),
      'every row exactly once, in order',
    );
    assert.ok(results.every((r) => r.state === 'done' && r.status === (r.request.member_id.endsWith('MNF') ? 404 : 200)));
  } finally {
    await second.stop();
  }
  const audited = await db.kysely.selectFrom('audit_events').select('request_id').where('request_id', 'like', `${id}.%`).execute();
  return { db, audited: audited.map((a) => a.request_id), finishedAtStop, auditedAtStop };
}

onEachStore(
  (name) => name,
  (open, name) => {
    test(`${name}: SIGTERM mid-batch, then a new start finishes it; no row is checked twice`, async (t) => {
      const store = await open();
      t.after(() => store.cleanup());
      const { db, audited } = await stopMidBatch(store, async (server) => assert.equal(await server.stop(), 0));
      assert.equal(new Set(audited).size, ROWS, 'one audit record per row');
      // The stopping worker finished the rows it had started: nothing was taken twice.
      const attempts = await db.kysely.selectFrom('batch_rows').select('attempts').execute();
      assert.ok(
        attempts.every((r) => Number(r.attempts) === 1),
        'each row was taken once',
      );
    });

    test(`${name}: killed mid-batch (no chance to clean up), the row it held is taken back after its lease`, async (t) => {
      const store = await open();
      t.after(() => store.cleanup());
      const { audited, finishedAtStop, auditedAtStop } = await stopMidBatch(store, async (server) => {
        server.child.kill('SIGKILL');
        await server.exited;
      });
      // Each row's audit record is written in the transaction of its result: the kill loses neither alone.
      assert.ok(finishedAtStop.length >= 50);
      assert.deepEqual([...auditedAtStop].sort(), [...finishedAtStop].sort(), 'right after the kill, every finished row has exactly one audit record');
      assert.equal(audited.length, ROWS, 'after the restart finished the batch: one audit record per row');
      assert.equal(new Set(audited).size, ROWS);
    });
  },
);

/**
 * Issue 23, finding 4: 40 answered checks, then `kill -9`, left 25 audit rows: records waited in
 * memory for up to 500 ms. Now a check's record is committed before its answer is sent, so a
 * process killed without warning under load still has a record of every answer it gave.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AVERY_ESTIMATE, postCheck } from '../support/checks.ts';
import { startServer } from '../support/processes.ts';
import { needsPostgres, postgresStore, sandboxKey, sqliteStore, type TestStore } from '../support/stores.ts';

const WORKERS = 12;
const KILL_AFTER = 80;

async function killedUnderLoad(store: TestStore): Promise<void> {
  const secret = await sandboxKey(store, 'load', 1_000_000);

  const server = await startServer(store.env);
  const answered: string[] = [];
  let killed = false;
  const bodies = [AVERY_ESTIMATE, { ...AVERY_ESTIMATE, member_id: '10100MHMNF' }, { ...AVERY_ESTIMATE, member_id: '10090MHUC' }];
  const worker = async (n: number) => {
    for (let i = 0; ; i++) {
      let res;
      try {
        res = await postCheck(server.url, secret, bodies[(n + i) % bodies.length]);
      } catch {
        return; // the connection died with the process
      }
      assert.ok(res.requestId, `status ${res.status}`);
      if (res.status >= 200 && res.status < 300) answered.push(res.requestId);
      if (!killed && answered.length >= KILL_AFTER) {
        killed = true;
        server.child.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, (_, n) => worker(n)));
  await server.exited;
  assert.equal(server.child.signalCode, 'SIGKILL');
  assert.ok(answered.length >= KILL_AFTER);

  // The next start on the same store: nothing of the killed process is left to replay.
  const again = await startServer(store.env);
  await again.stop();
  const db = await store.open();
  const audited = new Set((await db.kysely.selectFrom('audit_events').select('request_id').execute()).map((r) => r.request_id));
  const missing = answered.filter((id) => !audited.has(id));
  assert.deepEqual(missing, [], `${missing.length} of ${answered.length} answered checks have no audit record`);
}

describe('kill -9 under load loses no audit record of an answered check', () => {
  test('on SQLite', async (t) => {
    const store = await sqliteStore();
    t.after(() => store.cleanup());
    await killedUnderLoad(store);
  });
  test('on PostgreSQL', { skip: needsPostgres() }, async (t) => {
    const store = await postgresStore();
    t.after(() => store.cleanup());
    await killedUnderLoad(store);
  });
});

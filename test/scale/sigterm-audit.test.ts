/** SIGTERM under load: the server drains, and every check that got an answer has its audit record. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AVERY_ESTIMATE, postCheck } from '../support/checks.ts';
import { startServer } from '../support/processes.ts';
import { sandboxKey, sqliteStore } from '../support/stores.ts';

const WORKERS = 12;
const SIGTERM_AFTER = 60;

test('SIGTERM during load loses no audit record', async (t) => {
  const store = await sqliteStore();
  t.after(() => store.cleanup());
  const secret = await sandboxKey(store, 'load', 100_000);

  const server = await startServer({ COVERAGE_DATA_DIR: store.env.COVERAGE_DATA_DIR });
  t.after(() => server.stop());
  const answered: string[] = [];
  let signalled = false;
  const bodies = [AVERY_ESTIMATE, { ...AVERY_ESTIMATE, member_id: '10100MHMNF' }, { ...AVERY_ESTIMATE, member_id: '10090MHUC' }];

  const worker = async (n: number) => {
    for (let i = 0; ; i++) {
      let res;
      try {
        res = await postCheck(server.url, secret, bodies[(n + i) % bodies.length]);
      } catch {
        return; // refused or reset: the server has gone
      }
      // Fastify's drain answers 503 before any hook runs (no request id), and our own closing hook
      // refuses with 503 SERVICE_UNAVAILABLE before auth: neither is a check, so neither is audited.
      if (!res.requestId || res.status === 503) return;
      answered.push(res.requestId);
      if (!signalled && answered.length >= SIGTERM_AFTER) {
        signalled = true;
        server.child.kill('SIGTERM');
      }
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, (_, n) => worker(n)));
  assert.equal(await server.exited, 0, server.output().stderr);
  assert.ok(answered.length >= SIGTERM_AFTER);

  const db = await store.open();
  const audited = new Set((await db.kysely.selectFrom('audit_events').select('request_id').execute()).map((r) => r.request_id));
  const missing = answered.filter((id) => !audited.has(id));
  assert.deepEqual(missing, [], `${missing.length} of ${answered.length} answered checks have no audit record`);
});

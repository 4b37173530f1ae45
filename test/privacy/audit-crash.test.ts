/**
 * Issue 23, finding 4: 40 answered checks, then `kill -9`, left 25 audit rows: records waited in
 * memory for up to 500 ms. Now a check's record is committed before its answer is sent, so a
 * process killed without warning under load still has a record of every answer it gave.
 * Issue 39, item 1: the same for each request of a FHIR Bundle (`<request id>.<n>`).
 * Issue 39, item 4: and for console sign-ins, failed ones included, which waited in memory too.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AVERY_ESTIMATE, postCheck } from '../support/checks.ts';
import { AVERY, bundleOf, eligibilityRequest } from '../fhir/fixtures.ts';
import { startServer } from '../support/processes.ts';
import { needsPostgres, postgresStore, sandboxKey, sqliteStore, type TestStore } from '../support/stores.ts';
import { UserStore } from '../../src/store/users.ts';

const WORKERS = 12;
const KILL_AFTER = 80;

/** Sends one request; the audit request IDs its answer stands for, or null when it was not a success. */
type Send = (url: string, secret: string, n: number) => Promise<string[] | null>;

const bodies = [AVERY_ESTIMATE, { ...AVERY_ESTIMATE, member_id: '10100MHMNF' }, { ...AVERY_ESTIMATE, member_id: '10090MHUC' }];
const estimate: Send = async (url, secret, n) => {
  const res = await postCheck(url, secret, bodies[n % bodies.length]);
  assert.ok(res.requestId, `status ${res.status}`);
  return res.status >= 200 && res.status < 300 ? [res.requestId] : null;
};

/** A Bundle of a refused request and three members: four checks, four records. */
const marcus = { member_id: '10011MHDM', first: 'Marcus', last: 'Bell', dob: '1979-11-02', payer_id: 'SBX-EVERGREEN' };
const priya = { member_id: '10012MHDM', first: 'Priya', last: 'Raman', dob: '1992-07-21', payer_id: 'SBX-EVERGREEN' };
const BUNDLE = bundleOf({ ...eligibilityRequest(AVERY), purpose: [] }, ...[AVERY, marcus, priya].map((m) => eligibilityRequest(m, { price: 150 })));
const fhirBundle: Send = async (url, secret) => {
  const res = await postCheck(url, secret, BUNDLE, '/fhir/r4/CoverageEligibilityRequest/$submit');
  assert.ok(res.requestId, `status ${res.status}`);
  if (res.status !== 200) return null;
  assert.equal((res.body.entry as unknown[]).length, 4);
  return [1, 2, 3, 4].map((n) => `${res.requestId}.${n}`);
};

async function killedUnderLoad(store: TestStore, send: Send): Promise<void> {
  const secret = await sandboxKey(store, 'load', 1_000_000);

  const server = await startServer(store.env);
  const answered: string[] = [];
  let killed = false;
  const worker = async (n: number) => {
    for (let i = 0; ; i++) {
      let ids;
      try {
        ids = await send(server.url, secret, n + i);
      } catch (err) {
        if (err instanceof assert.AssertionError) throw err;
        return; // the connection died with the process
      }
      if (ids) answered.push(...ids);
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
    await killedUnderLoad(store, estimate);
  });
  test('on PostgreSQL', { skip: needsPostgres() }, async (t) => {
    const store = await postgresStore();
    t.after(() => store.cleanup());
    await killedUnderLoad(store, estimate);
  });
  test('each request of an answered FHIR Bundle, on SQLite', async (t) => {
    const store = await sqliteStore();
    t.after(() => store.cleanup());
    await killedUnderLoad(store, fhirBundle);
  });
});

test('kill -9 right after sign-ins loses none of their audit records', async (t) => {
  const store = await sqliteStore();
  t.after(() => store.cleanup());
  const db = await store.open();
  await new UserStore(db).create({ username: 'front-desk', env: 'sandbox', password: 'front desk password 1' });
  await db.close();
  const server = await startServer(store.env);
  const signIn = async (password: string) => {
    const res = await fetch(`${server.url}/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-coverage-console': '1' },
      body: JSON.stringify({ username: 'front-desk', password }),
    });
    await res.arrayBuffer();
    return [res.status, res.headers.get('x-request-id')!] as const;
  };
  const answers = [await signIn('front desk password 1')];
  for (let i = 0; i < 4; i++) answers.push(await signIn(`not the password ${i}`));
  server.child.kill('SIGKILL');
  await server.exited;
  assert.deepEqual(
    answers.map(([status]) => status),
    [200, 401, 401, 401, 401],
  );
  const after = await store.open();
  const rows = await after.kysely.selectFrom('audit_events').select(['request_id', 'endpoint', 'status']).execute();
  const byId = new Map(rows.map((r) => [r.request_id, [r.endpoint, r.status]]));
  assert.deepEqual(
    answers.map(([, id]) => byId.get(id) ?? 'missing'),
    [['console_sign_in', 200], ...Array(4).fill(['console_sign_in_failed', 401])],
  );
});

/**
 * The largest uploads the API takes, sent to the server as users start it (launch.ts): a schedule of
 * 10,000 appointments as CSV to POST /v1/monitors/bulk (docs/monitoring.md, "From tomorrow's schedule")
 * and 10,000 rows as CSV to POST /v1/batches (docs/batch.md, "Sending rows as CSV"), both at the
 * documented limits (10,000 monitors a key, 10,000 rows a batch). Both are read, validated and stored
 * in slices (src/formats/slices.ts); the bundle must carry that path, its store's worker thread and the
 * answer written in slices. The bodies are built as bench/csv-stall.ts builds them. Each answer is
 * checked for its status and counts, and against the served OpenAPI document (api.ts); then /healthz
 * must still answer. Nothing here measures time. With DATABASE_URL and REDIS_URL set (as .ci/run
 * sets them) the instance runs on them (a schema of its own, test/support/stores.ts); else on SQLite.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eventually } from '../helpers/eventually.ts';
import { DATABASE_URL, postgresStore, REDIS_URL, sqliteStore, type TestStore } from '../support/stores.ts';
import { apiOf, type Call } from './api.ts';
import { coverage, prepare, serve, TARGET, type Running } from './launch.ts';

const ROWS = 10_000;
const HEADER = 'member_id,member_first_name,member_last_name,member_dob,provider_npi,provider_session_cost';
/** One line per made-up sandbox member, each its own patient (so each appointment is a monitor of its own). */
const rows = (n: number) => Array.from({ length: n }, (_, i) => `${100000 + i}MHNA,Avery,Walsh,1980-01-01,1234567893,15000`);

/** A day far enough ahead that no appointment check (3 days before, and on the day) is due while the test runs. */
function appointmentDay(): string {
  const day = new Date();
  day.setUTCDate(day.getUTCDate() + 60);
  return day.toISOString().slice(0, 10);
}

let store: TestStore;
let server: Running;
let api: Call;

before(async () => {
  await prepare();
  store = DATABASE_URL ? await postgresStore() : await sqliteStore();
  const env = { ...store.env, ...(REDIS_URL ? { REDIS_URL } : {}) };
  const key = await coverage(['keys', 'create', '--name', 'e2e-bulk', '--env', 'sandbox'], env);
  assert.equal(key.code, 0, key.stderr);
  server = await serve(env);
  api = await apiOf(server.url, key.stdout.trim());
});
after(async () => {
  await server?.stop();
  await store?.cleanup();
});

const STORE = DATABASE_URL ? `PostgreSQL${REDIS_URL ? ' and Redis' : ''}` : 'SQLite';

async function healthy(): Promise<void> {
  const res = await fetch(`${server.url}/healthz`);
  assert.equal(res.status, 200, await res.text());
}

test(`${TARGET} on ${STORE}: a schedule of 10,000 appointments as CSV makes 10,000 monitors, and a batch of 10,000 rows as CSV is queued`, async () => {
  const day = appointmentDay();
  const schedule = `${HEADER},appointment_date\n${rows(ROWS)
    .map((line) => `${line},${day}`)
    .join('\n')}\n`;
  const monitors = await api('POST', '/v1/monitors/bulk', { body: schedule, headers: { 'content-type': 'text/csv' } });
  assert.equal(monitors.status, 201, monitors.text.slice(0, 2000));
  const made = monitors.body.monitors as { id: string; next_check_at: string | null; rows: number[] }[];
  assert.equal(made.length, ROWS);
  assert.equal(new Set(made.map((m) => m.id)).size, ROWS, 'one monitor per patient');
  // Row numbers count the header as row 1, as a spreadsheet does.
  assert.deepEqual(
    made.flatMap((m) => m.rows).sort((a, b) => a - b),
    Array.from({ length: ROWS }, (_, i) => i + 2),
  );
  assert.ok(
    made.every((m) => m.next_check_at !== null),
    'each has a check ahead',
  );
  // All of them are visible at once once the answer is given: the last page of the listing holds the last one.
  const last = await api('GET', `/v1/monitors?offset=${ROWS - 1}&limit=200`);
  assert.equal(last.status, 200, last.text);
  assert.deepEqual([last.body.monitors.length, last.body.next_offset], [1, null]);
  await healthy();

  const batch = await api('POST', '/v1/batches?filename=schedule-10000.csv', {
    body: `${HEADER}\n${rows(ROWS).join('\n')}\n`,
    headers: { 'content-type': 'text/csv' },
  });
  assert.equal(batch.status, 202, batch.text.slice(0, 2000));
  assert.equal(batch.body.total, ROWS);
  const progress = await api('GET', `/v1/batches/${batch.body.id}`);
  assert.equal(progress.status, 200, progress.text);
  assert.equal(progress.body.total, ROWS);
  await healthy();
  // The rows are not waited for: cancelled, so the machine does not run 10,000 checks after the test.
  const cancelled = await api('DELETE', `/v1/batches/${batch.body.id}`);
  assert.equal(cancelled.status, 200, cancelled.text);
  // Rows already running finish first: each one finished restarts the count of polls (no bound in time).
  let finished = -1;
  const settled = await eventually(
    'the batch has no row waiting or running',
    async () => {
      const got = await api('GET', `/v1/batches/${batch.body.id}`);
      finished = got.body.done + got.body.cancelled;
      return got.body.pending === 0 && got.body.running === 0 && got;
    },
    { tries: 1500, pauseMs: 50, progress: () => finished },
  );
  assert.equal(settled.body.done + settled.body.cancelled, ROWS, settled.text);
  await healthy();
});

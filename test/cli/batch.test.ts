/**
 * `coverage batch` as a user runs it, in its own process against a server: plain progress lines in
 * a pipe, a bar redrawn in place on a terminal (a pseudo-terminal from script(1)), the results
 * CSV saved, a refused schedule naming its rows, and Ctrl-C leaving the batch running with the
 * command that picks it up again.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { batchBody } from '../../src/cli/batch.ts';
import { formatDuration, ProgressMeter } from '../../src/cli/batch-progress.ts';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';
import { runCli } from '../support/processes.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCHEDULE = 'examples/schedule.csv';
const SCHEDULE_ROWS = readFileSync(join(ROOT, SCHEDULE), 'utf8').trimEnd().split('\n').length - 1;
// A sandbox server's results: the sandbox mark, the spreadsheet row, the verdict in words, then the fields.
const RESULTS_HEADER = /^\uFEFFsandbox,row,verdict,next_step,endpoint,status,outcome,message,member_id,/;

let server: TestServer;
let dir: string;
before(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'coverage-batch-cli-'));
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = (url = server.url) => ({ COVERAGE_URL: url, COVERAGE_API_KEY: TEST_KEY });

function resultLines(file: string): string[] {
  return readFileSync(file, 'utf8').trimEnd().split('\r\n');
}

test('in a pipe: plain progress lines, the outcomes, and the results CSV written', async () => {
  const out = join(dir, 'pipe.csv');
  const r = await runCli(['batch', SCHEDULE, '--wait', '--out', out], env());
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  assert.doesNotMatch(r.stdout, /[\r\x1b]/, 'no carriage returns or escape codes outside a terminal');
  const lines = r.stdout.trimEnd().split('\n');
  assert.match(lines[0]!, new RegExp(`^Queued ${SCHEDULE_ROWS} checks from ${SCHEDULE} as batch bat_\\w+\\.$`));
  const progress = lines.filter((l) => /^\d+ of \d+ checked \(\d+%\)/.test(l));
  assert.ok(progress.length >= 1);
  assert.match(progress.at(-1)!, new RegExp(`^${SCHEDULE_ROWS} of ${SCHEDULE_ROWS} checked \\(100%\\)`));
  assert.match(r.stdout, /^Done: .*OK \d+.*MEMBER_NOT_FOUND 1/m);
  assert.match(r.stdout, new RegExp(`^Results: ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(${SCHEDULE_ROWS} rows\\)$`, 'm'));

  const csv = resultLines(out);
  assert.equal(statSync(out).mode & 0o777, 0o600, 'the results hold member data: readable by this user only');
  assert.equal(csv.length, SCHEDULE_ROWS + 1);
  assert.match(csv[0]!, RESULTS_HEADER);
  assert.match(csv[1]!, /^SANDBOX — not real coverage data,2,.*,estimate,200,OK,,10010MHNA,Avery,Walsh,/);
  assert.ok(csv.some((l) => /,estimate,404,MEMBER_NOT_FOUND,/.test(l)));
});

test('on a terminal: one bar redrawn in place with rows, percent, rate and ETA, then the results', async () => {
  const out = join(dir, 'tty.csv');
  const command = [process.execPath, '--import', 'tsx', 'src/cli/main.ts', 'batch', SCHEDULE, '--out', out].map((a) => `'${a}'`).join(' ');
  const { stdout } = await promisify(execFile)('script', ['-qfec', command, '/dev/null'], {
    cwd: ROOT,
    env: { ...process.env, ...env(), NODE_TEST_CONTEXT: '' },
    timeout: 60_000,
  });
  const frames = stdout.split('\r\x1b[K').slice(1);
  assert.ok(frames.length >= 1, JSON.stringify(stdout));
  for (const frame of frames) assert.match(frame, /^\[[█░]{24}\] {2}\d+\/\d+ {2}\d+% {2}(\d+\.\d rows\/s|-- rows\/s) {2}(ETA (\d+:\d\d|--:--)|done)/);
  assert.match(frames.at(-1)!, new RegExp(`^\\[█{24}\\] {2}${SCHEDULE_ROWS}/${SCHEDULE_ROWS} {2}100% {2}\\d+\\.\\d rows/s {2}done`));
  assert.doesNotMatch(stdout, /\d+ of \d+ checked/, 'no plain lines on a terminal');
  assert.match(stdout, /Results: .*tty\.csv/);
  assert.equal(resultLines(out).length, SCHEDULE_ROWS + 1);
});

test('a refused schedule: exit 1, each bad row named, nothing queued', async () => {
  const file = join(dir, 'bad.csv');
  writeFileSync(file, 'member_id,member_dob,provider_session_cost\n10010MHNA,1988-03-14,15000\n10011MHDM,1979-02-30,15000\n');
  const r = await runCli(['batch', file, '--wait'], env());
  assert.equal(r.code, 1);
  assert.match(r.stderr, /INVALID_REQUEST \(HTTP 400\): 1 row is invalid \(row 3\)/);
  assert.match(r.stderr, /^ {2}row 3: member_dob "1979-02-30" is not a real calendar date$/m, 'the spreadsheet row: the header is row 1');
  assert.equal(r.stdout, '');
});

test('JSON schedules are sent as JSON, a bare array as its checks; other files as CSV', () => {
  const check = { endpoint: 'estimate', request: { member_id: '1MHNA' } };
  assert.deepEqual(batchBody('a.json', JSON.stringify([check])), { contentType: 'application/json', body: JSON.stringify({ checks: [check] }) });
  assert.equal(batchBody('a.txt', `\uFEFF ${JSON.stringify({ checks: [check] })}`).contentType, 'application/json');
  assert.deepEqual(batchBody('a.csv', 'member_id\n1MHNA\n'), { contentType: 'text/csv', body: 'member_id\n1MHNA\n' });
});

test('Ctrl-C stops watching, not the batch: the hint it prints picks the batch up on the next server', async () => {
  // A server that accepts batches but runs none, so the batch is certainly unfinished at Ctrl-C.
  const dataDir = mkdtempSync(join(tmpdir(), 'coverage-batch-sigint-'));
  const first = await startTestServer({ env: { COVERAGE_DATA_DIR: dataDir } });
  let hint: string;
  const out = join(dir, 'resumed.csv');
  try {
    await first.runtime.batchRunner.close();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'batch', SCHEDULE, '--out', out], {
      cwd: ROOT,
      env: { ...process.env, ...env(first.url), NODE_TEST_CONTEXT: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const closed = once(child, 'close');
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (/0 of \d+ checked/.test(stdout)) resolve();
      });
      void closed.then(() => reject(new Error(`exited before watching: ${stdout}${stderr}`)));
    });
    child.kill('SIGINT');
    const [code] = (await closed) as [number | null];
    assert.equal(code, 130, stderr);
    const id = /as batch (bat_\w+)/.exec(stdout)?.[1];
    assert.ok(id, stdout);
    assert.match(stdout, new RegExp(`Stopped watching\\. Batch ${id} keeps running on the server\\.`));
    hint = /^Watch it again: (coverage batch .*)$/m.exec(stdout)?.[1] ?? '';
    assert.equal(hint, `coverage batch --watch ${id} --out ${out}`);
    assert.equal(existsSync(out), false, 'no results file for an unfinished batch');
    const progress = await first.get(`/v1/batches/${id}`);
    assert.equal(progress.status, 200);
    assert.equal(progress.body.total, SCHEDULE_ROWS, 'the batch is still there, rows intact');
    assert.equal(progress.body.done, 0);
  } finally {
    await first.close();
  }

  const second = await startTestServer({ env: { COVERAGE_DATA_DIR: dataDir } });
  try {
    const args = hint.split(' ').slice(1);
    const r = await runCli(args, env(second.url));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`${SCHEDULE_ROWS} of ${SCHEDULE_ROWS} checked \\(100%\\)`));
    assert.equal(resultLines(out).length, SCHEDULE_ROWS + 1);
  } finally {
    await second.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('progress arithmetic: rate from what was seen, ETA from the rate, durations as m:ss', () => {
  const meter = new ProgressMeter();
  meter.observe({ done: 0, total: 500, at: 0 });
  assert.equal(meter.rate(), null);
  assert.match(meter.bar(), /ETA --:--$/);
  meter.observe({ done: 100, total: 500, at: 4_000 });
  assert.equal(meter.rate(), 25);
  assert.equal(meter.eta(), 16);
  assert.equal(meter.line(), '100 of 500 checked (20%), 25.0 rows/s, about 0:16 left');
  assert.match(meter.bar(), /^\[█{5}░{19}\] {2}100\/500 {2}20% {2}25\.0 rows\/s {2}ETA 0:16$/);
  assert.equal(formatDuration(3725), '1:02:05');
  assert.equal(formatDuration(59.6), '1:00');
});

test('--watch of a cancelled batch stops once its running rows finish, says how many were not checked, and saves the results', async () => {
  const checks = Array.from({ length: 2000 }, (_, i) => ({
    endpoint: 'estimate',
    request: { member_id: `${i + 1}MHNA`, member_first_name: '', member_last_name: '', member_dob: '1980-01-01' },
  }));
  const created = await server.post('/v1/batches', { checks });
  assert.equal(created.status, 202);
  const cancelled = await server.delete(`/v1/batches/${created.body.id}`);
  assert.equal(cancelled.body.status, 'cancelled');
  const out = join(dir, 'cancelled.csv');
  const r = await runCli(['batch', '--watch', created.body.id, '--out', out], env());
  assert.equal(r.code, 0, r.stderr);
  const notChecked = Number(/^Cancelled: (\d+) of 2000 rows were not checked$/m.exec(r.stdout)?.[1]);
  assert.ok(notChecked > 0, r.stdout);
  const csv = resultLines(out);
  assert.equal(csv.length, 2001);
  assert.equal(csv.filter((l) => /,(estimate|discover|scan|medicaid),[^,]*,CANCELLED,/.test(l)).length, notChecked);
});

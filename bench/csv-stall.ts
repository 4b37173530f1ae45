/**
 * Does a hostile batch CSV stall the server (issue 23, finding 2)? Two bodies of the attack, and a
 * real 10,000-line schedule:
 *  - in process: the time parseCsv and the whole batch reading (fromCsv) hold the event loop, beside
 *    the character-by-character reader the rewrite replaced (test/support/reference-csv.ts);
 *  - through `coverage serve`: the slowest answer of a /healthz probe sent every 5 ms while each
 *    body is POSTed to /v1/batches, beside the same probe with nothing else going on.
 * The in-process figures are CPU time, which a busy machine does not inflate; the probe's are wall
 * time, so read them beside the idle probe of the same run. Prints the figures; bench/RESULTS.md's "CSV uploads and the event loop" section is written by hand from them.
 * Run: node --import tsx bench/csv-stall.ts
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { fromCsv, MAX_COLUMNS } from '../src/formats/batch-input.ts';
import { createCheckValidator } from '../src/http/check-validator.ts';
import { parseCsv } from '../src/formats/csv.ts';
import { MAX_BATCH_ROWS } from '../src/domain/batch.ts';
import { startServer } from '../test/support/processes.ts';
import { referenceParseCsv } from '../test/support/reference-csv.ts';

const HEADER = 'member_id,member_first_name,member_last_name,member_dob,provider_npi,provider_session_cost';
const BODIES: Record<string, string> = {
  // Just under the 8 MiB body limit of /v1/batches.
  'one 8 MB value': `${HEADER}\n1MHNA,"${'x'.repeat(8 * 1024 * 1024 - 200)}",Lee,1980-01-01,1234567893,15000\n`,
  '10,000 rows of 350-character names': `${HEADER}\n${Array.from({ length: 10_000 }, (_, i) => `${100000 + i}MHNA,${'n'.repeat(350)},${'m'.repeat(350)},1980-01-01,1234567893,15000`).join('\n')}\n`,
  // Within every CSV limit, every value of every row invalid: what is left is validation.
  '10,000 rows, every value invalid': `${HEADER}\n${Array.from({ length: 10_000 }, () => '!!,!!,!!,!!,!!,!!').join('\n')}\n`,
  'a real schedule of 10,000 rows': `${HEADER}\n${Array.from({ length: 10_000 }, (_, i) => `${100000 + i}MHNA,Avery,Walsh,1980-01-01,1234567893,15000`).join('\n')}\n`,
};

const ms = (n: number) => `${n.toFixed(1)} ms`;

/** CPU time of one synchronous call (what it holds the event loop for on an idle core), best of 5 after one to warm. */
function timed(run: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < 6; i++) {
    const t = process.cpuUsage();
    try {
      run();
    } catch {
      // A refusal is an answer too: its cost is what is measured.
    }
    const used = process.cpuUsage(t);
    if (i > 0) best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

console.log(`In process, CPU time of the synchronous call (best of 5); load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);
console.log('| body | size | old parseCsv | new parseCsv | fromCsv (parse, limits, validation) |');
console.log('|---|---|---|---|---|');
const validate = createCheckValidator();
const batchLimits = { maxCells: MAX_COLUMNS, maxRecords: MAX_BATCH_ROWS + 1 };
for (const [name, body] of Object.entries(BODIES)) {
  const old = timed(() => referenceParseCsv(body, batchLimits));
  const now = timed(() => parseCsv(body, batchLimits));
  const whole = timed(() => fromCsv(body, validate));
  console.log(`| ${name} | ${(body.length / 1e6).toFixed(1)} MB | ${ms(old)} | ${ms(now)} | ${ms(whole)} |`);
}

const dir = mkdtempSync(join(tmpdir(), 'coverage-csv-stall-'));
const key = `cov_bench_${randomBytes(16).toString('hex')}`;
const server = await startServer({ COVERAGE_DATA_DIR: dir, COVERAGE_DEV_KEY: key, LOG_LEVEL: 'warn' });

/** CPU milliseconds the server process has used (Linux /proc, in 10 ms ticks). */
function serverCpuMs(): number {
  const fields = readFileSync(`/proc/${server.child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Probes /healthz every 5 ms from a worker thread (so this process's own upload does not delay it)
 * until `during` settles; the slowest answer.
 */
async function probeWhile(during: Promise<unknown>): Promise<number> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     let worst = 0, stop = false;
     parentPort.on('message', () => (stop = true));
     (async () => {
       while (!stop) {
         const t = performance.now();
         await fetch(workerData + '/healthz').then((r) => r.arrayBuffer());
         worst = Math.max(worst, performance.now() - t);
         await new Promise((r) => setTimeout(r, 5));
       }
       parentPort.postMessage(worst);
     })();`,
    { eval: true, workerData: server.url },
  );
  await during.catch(() => {});
  worker.postMessage('stop');
  const [worst] = (await once(worker, 'message')) as [number];
  await worker.terminate();
  return worst;
}

try {
  // The first answers of a process compile their routes.
  await probeWhile(new Promise((r) => setTimeout(r, 500)));
  // The first batch row of a process compiles the check validators.
  await fetch(`${server.url}/v1/batches`, { method: 'POST', headers: { apikey: key, 'content-type': 'text/csv' }, body: `${HEADER}\n!\n` });
  const idleCpu = serverCpuMs();
  const idle = await probeWhile(new Promise((r) => setTimeout(r, 2_000)));
  console.log(
    `\nThrough coverage serve: slowest /healthz answer while the body is POSTed to /v1/batches, and the server's CPU meanwhile (2 s of probes alone: ${ms(idle)}, ${serverCpuMs() - idleCpu} ms of CPU)`,
  );
  console.log('| body | status | upload answered in | slowest /healthz | server CPU |');
  console.log('|---|---|---|---|---|');
  for (const [name, body] of Object.entries(BODIES)) {
    const t = performance.now();
    const cpu = serverCpuMs();
    let status = 0;
    let answered = 0;
    const upload = fetch(`${server.url}/v1/batches`, { method: 'POST', headers: { apikey: key, 'content-type': 'text/csv' }, body }).then(async (r) => {
      status = r.status;
      await r.arrayBuffer();
      answered = performance.now() - t;
    });
    const worst = await probeWhile(upload);
    console.log(`| ${name} | ${status} | ${ms(answered)} | ${ms(worst)} | ${serverCpuMs() - cpu} ms |`);
  }
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}

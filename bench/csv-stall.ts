/**
 * Does one upload hold the server's event loop (issue 23, finding 2; issue 39, item 2)? Each body
 * below, read two ways:
 *  - in process (`--server-only` leaves it out): the CPU time of reading and validating it at once
 *    (fromCsv), which is how long the old route held the loop, beside the longest slice and the number
 *    of slices when read as the routes now read it (through inSlices, a setImmediate between: csvUpload
 *    for /v1/batches, which keeps two numbers a row, and csvBatch for a schedule);
 *  - through `coverage serve`: the slowest answer of a /healthz probe sent every 5 ms while the body
 *    is POSTed (to /v1/batches, or /v1/monitors/bulk), beside the same probe with nothing else going
 *    on, and the server's CPU meanwhile; and, measured inside the server, the largest event-loop
 *    delay prom-client's default metrics saw (`nodejs_eventloop_lag_max_seconds` on /metrics, reset
 *    by each read: read just before the upload and once it is answered), and the server's longest
 *    wait between two turns of a 1 ms timer with the server's CPU time during it (bench/lib/loop-turns.mjs,
 *    preloaded for the bench only): on a loaded machine the CPU time is the steadier figure.
 * The last body is a remittance (X12 835) of 5,000 claims POSTed to /v1/remittances (issue 41): in
 * process, the CPU time of reading it at once (readRemittances); through the server, as above.
 * The probe's figures are wall time, so read them beside the idle probe of the same run. Prints the
 * figures; bench/RESULTS.md's "CSV uploads and the event loop" sections are written by hand from them.
 * Run: node --import tsx bench/csv-stall.ts [--server-only]
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { startServer } from '../test/support/processes.ts';

const { values: args } = parseArgs({ options: { 'server-only': { type: 'boolean', default: false } } });

const HEADER = 'member_id,member_first_name,member_last_name,member_dob,provider_npi,provider_session_cost';
const valid = (n: number) => Array.from({ length: n }, (_, i) => `${100000 + i}MHNA,Avery,Walsh,1980-01-01,1234567893,15000`);
const WIDE = Array.from({ length: 64 }, (_, i) => `column_${i + 1}`).join(',');
const WIDE_ROW = Array.from({ length: 64 }, (_, i) => `v${i}`).join(',');
interface Upload {
  path: '/v1/batches' | '/v1/monitors/bulk' | '/v1/remittances';
  body: string;
}
const UPLOADS: Record<string, Upload> = {
  // Just under the 8 MiB body limit.
  '8 MB of blank lines': { path: '/v1/batches', body: `${HEADER}\n${'\n'.repeat(8 * 1024 * 1024 - 200)}` },
  // Within every CSV limit, every value of every row invalid: what is left is validation.
  '10,000 rows, every value invalid': { path: '/v1/batches', body: `${HEADER}\n${Array.from({ length: 10_000 }, () => '!!,!!,!!,!!,!!,!!').join('\n')}\n` },
  'an unclosed quote after 9,999 rows': { path: '/v1/batches', body: `${HEADER}\n${valid(9_999).join('\n')}\n"1MHNA,Avery\n` },
  'a 64-column header over 10,000 rows': { path: '/v1/batches', body: `${WIDE}\n${Array.from({ length: 10_000 }, () => WIDE_ROW).join('\n')}\n` },
  'a valid batch of 10,000 rows': { path: '/v1/batches', body: `${HEADER}\n${valid(10_000).join('\n')}\n` },
  'a schedule of 10,000 appointments': {
    path: '/v1/monitors/bulk',
    body: `${HEADER},appointment_date\n${valid(10_000)
      .map((line) => `${line},2026-12-30`)
      .join('\n')}\n`,
  },
};

/** A remittance (X12 835) of 5,000 claims, a session today each, for made-up members of the sandbox payer (issue 41: parsing off the event loop). */
const { claimOf, remittance835, serviceLine, PR } = await import('../test/helpers/remittance-835.ts');
const REMITTANCE_CLAIMS = 5_000;
const remittanceOf = (payerId: string) =>
  remittance835(
    payerId,
    // Each claim with the payer's claim control number (CLP07), as payers send it: the store keys and settles each.
    Array.from({ length: REMITTANCE_CLAIMS }, (_, i) => ({
      ...claimOf(`C${i + 1}`, { member_id: `${100000 + i}MHNA`, member_first_name: 'Avery', member_last_name: 'Walsh' }, [
        serviceLine('90837', 15000, 12000, [PR('3', 3000)], 15000, new Date().toISOString().slice(0, 10)),
      ]),
      payer_claim_id: `PCN${i + 1}`,
    })),
  );
const REMITTANCE = 'a remittance (835) of 5,000 claims';

const ms = (n: number) => `${n.toFixed(1)} ms`;
const size = (body: string) => `${(body.length / 1e6).toFixed(1)} MB`;

if (!args['server-only']) {
  const { csvBatch, csvUpload, fromCsv } = await import('../src/formats/batch-input.ts');
  const { inSlices } = await import('../src/formats/slices.ts');
  const { createCheckValidator } = await import('../src/http/check-validator.ts');
  const validate = createCheckValidator();
  const extra = (u: Upload) => (u.path === '/v1/monitors/bulk' ? ['appointment_date'] : []);

  /** CPU time of one synchronous call (what it holds the event loop for on an idle core), best of 5 after one to warm. */
  const atOnce = (run: () => unknown): number => {
    let best = Infinity;
    for (let i = 0; i < 6; i++) {
      const t = process.cpuUsage();
      run();
      const used = process.cpuUsage(t);
      if (i > 0) best = Math.min(best, (used.user + used.system) / 1000);
    }
    return best;
  };

  /** Read in slices: the longest slice (wall time from one pause's end to the next pause), best of 5 after one to warm. */
  const sliced = async (upload: Upload): Promise<{ longest: number; slices: number }> => {
    let best = { longest: Infinity, slices: 0 };
    for (let i = 0; i < 6; i++) {
      let longest = 0;
      let slices = 1;
      let from = performance.now();
      const read = upload.path === '/v1/batches' ? csvUpload(upload.body, validate) : csvBatch(upload.body, validate, extra(upload));
      await inSlices<unknown>(read, async () => {
        longest = Math.max(longest, performance.now() - from);
        slices++;
        await new Promise((resolve) => setImmediate(resolve));
        from = performance.now();
      });
      longest = Math.max(longest, performance.now() - from);
      if (i > 0 && longest < best.longest) best = { longest, slices };
    }
    return best;
  };

  console.log(`In process (load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores): reading and validating each body`);
  console.log('| body | size | at once (CPU) | in slices: longest slice | slices |');
  console.log('|---|---|---|---|---|');
  for (const [name, upload] of Object.entries(UPLOADS)) {
    const whole = atOnce(() => fromCsv(upload.body, validate, extra(upload)));
    const { longest, slices } = await sliced(upload);
    console.log(`| ${name} | ${size(upload.body)} | ${ms(whole)} | ${ms(longest)} | ${slices} |`);
  }
  const { readRemittances } = await import('../src/x12/remittance/read-835.ts');
  const x12 = remittanceOf('SANDBOX');
  console.log(`| ${REMITTANCE}: readRemittances | ${size(x12)} | ${ms(atOnce(() => readRemittances(x12)))} | | |`);

  // Storing the valid batch's rows in a fresh SQLite store, as the route does (the log checkpointed by a worker thread, as the
  // server's): the longest slice, and the last (the UPDATE that makes the batch visible; before, the COMMIT of all its rows).
  const { openDb } = await import('../src/store/db.ts');
  const { BatchStore } = await import('../src/store/batches.ts');
  const storeDir = mkdtempSync(join(tmpdir(), 'coverage-csv-stall-store-'));
  const db = await openDb({ dataDir: storeDir, checkpointInBackground: true });
  try {
    const input = fromCsv(UPLOADS['a valid batch of 10,000 rows']!.body, validate);
    if (!input.ok) throw new Error('the valid batch is invalid');
    // Wall time on a loaded machine counts the time other processes held the core; the process's CPU time (all its
    // threads: the checkpoint worker's too) does not.
    console.log('\n| storing 10,000 rows (SQLite) | at once (wall) | in slices: longest slice (wall) | longest slice (CPU) | the last slice | slices |');
    console.log('|---|---|---|---|---|---|');
    for (let run = 0; run < 3; run++) {
      const batch = { keyId: 'k', ownerId: 'o', env: 'sandbox' as const, source: 'csv' as const, checks: input.checks, payerKeys: input.checks.map(() => 'x') };
      const t = performance.now();
      await new BatchStore(db).create(batch);
      const whole = performance.now() - t;
      let longest = 0;
      let longestCpu = 0;
      let slices = 1;
      let from = performance.now();
      let fromCpu = process.cpuUsage();
      const cpuSince = (t: NodeJS.CpuUsage) => {
        const used = process.cpuUsage(t);
        return (used.user + used.system) / 1000;
      };
      await new BatchStore(db).create(batch, new Date(), async () => {
        longest = Math.max(longest, performance.now() - from);
        longestCpu = Math.max(longestCpu, cpuSince(fromCpu));
        slices++;
        await new Promise((resolve) => setImmediate(resolve));
        from = performance.now();
        fromCpu = process.cpuUsage();
      });
      const last = performance.now() - from;
      longestCpu = Math.max(longestCpu, cpuSince(fromCpu));
      console.log(`| run ${run + 1} | ${ms(whole)} | ${ms(Math.max(longest, last))} | ${ms(longestCpu)} | ${ms(last)} | ${slices} |`);
    }
  } finally {
    await db.close();
    rmSync(storeDir, { recursive: true, force: true });
  }
}

const dir = mkdtempSync(join(tmpdir(), 'coverage-csv-stall-'));
const key = `cov_bench_${randomBytes(16).toString('hex')}`;
const turnsFile = join(dir, 'loop-turns.json');
const server = await startServer({
  COVERAGE_DATA_DIR: dir,
  COVERAGE_DEV_KEY: key,
  LOG_LEVEL: 'warn',
  NODE_OPTIONS: `--import=${fileURLToPath(new URL('./lib/loop-turns.mjs', import.meta.url))}`,
  BENCH_LOOP_TURNS_FILE: turnsFile,
});

/** The largest event-loop delay (ms) the server's prom-client saw since the last read: each read resets it. */
async function lagMaxMs(): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Number(/^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text)?.[1]) * 1000;
}

/** This process's monotonic clock in microseconds: the server's loop-turns.mjs notes its waits on the same clock. */
const nowUs = () => Number(process.hrtime.bigint() / 1000n);
/** Each body's time span, for the server's waits read after it stops. */
const spans: { name: string; fromUs: number; toUs: number }[] = [];

/** CPU milliseconds the server process has used (Linux /proc, in 10 ms ticks). */
function serverCpuMs(): number {
  const fields = readFileSync(`/proc/${server.child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Probes /healthz every 5 ms from a worker thread (so this process's own upload does not delay it)
 * until `during` settles; the slowest answer and the median.
 */
async function probeWhile(during: Promise<unknown>): Promise<{ worst: number; median: number }> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const times = [];
     let stop = false;
     parentPort.on('message', () => (stop = true));
     (async () => {
       while (!stop) {
         const t = performance.now();
         await fetch(workerData + '/healthz').then((r) => r.arrayBuffer());
         times.push(performance.now() - t);
         await new Promise((r) => setTimeout(r, 5));
       }
       times.sort((a, b) => a - b);
       parentPort.postMessage({ worst: times.at(-1) ?? 0, median: times[Math.floor(times.length / 2)] ?? 0 });
     })();`,
    { eval: true, workerData: server.url },
  );
  await during.catch(() => {});
  worker.postMessage('stop');
  const [result] = (await once(worker, 'message')) as [{ worst: number; median: number }];
  await worker.terminate();
  return result;
}

try {
  // The first answers of a process compile their routes.
  await probeWhile(new Promise((r) => setTimeout(r, 500)));
  // The first batch row of a process compiles the check validators.
  await fetch(`${server.url}/v1/batches`, { method: 'POST', headers: { apikey: key, 'content-type': 'text/csv' }, body: `${HEADER}\n!\n` });
  const idleCpu = serverCpuMs();
  await lagMaxMs();
  const idleFrom = nowUs();
  const idle = await probeWhile(new Promise((r) => setTimeout(r, 2_000)));
  const idleLag = await lagMaxMs();
  spans.push({ name: '(2 s of /healthz probes alone)', fromUs: idleFrom, toUs: nowUs() });
  console.log(
    `\nThrough coverage serve (load average ${loadavg()[0]!.toFixed(1)}): slowest /healthz answer while the body is POSTed, the largest event-loop delay the server saw (prom-client, 10 ms resolution: it counts the timer's 10 ms), and the server's CPU meanwhile. ` +
      `2 s of probes alone: an empty request answered in ${ms(idle.median)} (median), the slowest in ${ms(idle.worst)}; in-server delay at most ${ms(idleLag)}; ${serverCpuMs() - idleCpu} ms of CPU`,
  );
  console.log('| body | to | status | answered in | slowest /healthz | in-server max event-loop delay | server CPU |');
  console.log('|---|---|---|---|---|---|---|');
  // The 835's payer as the directory names it, from one estimate (whose session the 835's first claim then matches).
  const estimated = await fetch(`${server.url}/v1/estimate`, {
    method: 'POST',
    headers: { apikey: key, 'content-type': 'application/json' },
    body: JSON.stringify({
      member_id: '100000MHNA',
      member_first_name: 'Avery',
      member_last_name: 'Walsh',
      member_dob: '1980-01-01',
      provider_npi: '1234567893',
      provider_session_cost: 15000,
      procedure_code: '90837',
    }),
  });
  const payerId = ((await estimated.json()) as { payer_id?: string }).payer_id ?? 'SANDBOX';
  const uploads: Record<string, Upload> = { ...UPLOADS, [REMITTANCE]: { path: '/v1/remittances', body: remittanceOf(payerId) } };
  for (const [name, upload] of Object.entries(uploads)) {
    await lagMaxMs();
    const fromUs = nowUs();
    const t = performance.now();
    const cpu = serverCpuMs();
    let status = 0;
    let answered = 0;
    let batchId: string | undefined;
    const type = upload.path === '/v1/remittances' ? 'application/edi-x12' : 'text/csv';
    const sent = fetch(`${server.url}${upload.path}`, { method: 'POST', headers: { apikey: key, 'content-type': type }, body: upload.body }).then(async (r) => {
      status = r.status;
      batchId = ((await r.json()) as { id?: string }).id;
      answered = performance.now() - t;
    });
    const { worst } = await probeWhile(sent);
    const lag = await lagMaxMs();
    spans.push({ name, fromUs, toUs: nowUs() });
    console.log(`| ${name} | ${upload.path} | ${status} | ${ms(answered)} | ${ms(worst)} | ${ms(lag)} | ${serverCpuMs() - cpu} ms |`);
    // A queued batch is cancelled, so its checks do not run beside the next upload.
    if (batchId && upload.path === '/v1/batches') await fetch(`${server.url}/v1/batches/${batchId}`, { method: 'DELETE', headers: { apikey: key } });
  }
} finally {
  await server.stop();
}
try {
  // The server's waits of more than 10 ms between two turns of its 1 ms timer, written as it exited.
  const turns = JSON.parse(readFileSync(turnsFile, 'utf8')) as { fromUs: number; toUs: number; wallMs: number; cpuMs: number }[];
  console.log(
    '\nInside the server, while each body was POSTed and answered: the longest wait between two turns of a 1 ms timer (wall time), and the wait in which the server used the most CPU (its CPU time: the loop held, without the time other processes held the core)',
  );
  console.log('| body | waits over 10 ms | longest wait (wall) | its CPU | most CPU in one wait | its wall time |');
  console.log('|---|---|---|---|---|---|');
  for (const span of spans) {
    const within = turns.filter((w) => w.toUs >= span.fromUs && w.fromUs <= span.toUs);
    const longest = within.reduce((a, w) => (w.wallMs > a.wallMs ? w : a), { wallMs: 0, cpuMs: 0 });
    const busiest = within.reduce((a, w) => (w.cpuMs > a.cpuMs ? w : a), { wallMs: 0, cpuMs: 0 });
    console.log(`| ${span.name} | ${within.length} | ${ms(longest.wallMs)} | ${ms(longest.cpuMs)} | ${ms(busiest.cpuMs)} | ${ms(busiest.wallMs)} |`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

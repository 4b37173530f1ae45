/**
 * A batch of 10,000 sandbox estimates through `coverage serve` as it ships (SQLite, default batch
 * settings): POST /v1/batches, poll until completed, fetch the results. Writes the
 * "## Batch of 10,000" section of bench/RESULTS.md.
 * Run: node --import tsx bench/batch-10k.ts [--rows N] [--no-write]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startServer } from '../test/support/processes.ts';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '10000' }, 'no-write': { type: 'boolean', default: false } } });
const ROWS = Number(values.rows);
const RESULTS = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
const HEADING = '## Batch of 10,000';

/** A schedule like a practice's: mostly active members, some partial answers, some not found. */
function schedule(rows: number) {
  const suffixes = ['NA', 'NA', 'NA', 'DM', 'DM', 'UC', 'UA', 'MNF', 'CA', 'SP'];
  return Array.from({ length: rows }, (_, i) => ({
    endpoint: 'estimate',
    request: {
      member_id: `${100000 + i}MH${suffixes[i % suffixes.length]}`,
      member_first_name: '',
      member_last_name: '',
      member_dob: '1980-01-01',
      provider_npi: '1234567893',
      provider_session_cost: '15000',
      in_network: true,
    },
  }));
}

function replaceSection(markdown: string): void {
  let text = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '# Benchmark results\n';
  const start = text.indexOf(`\n${HEADING}\n`);
  if (start < 0) text = `${text.trimEnd()}\n\n${markdown.trimEnd()}\n`;
  else {
    const next = text.indexOf('\n## ', start + HEADING.length + 1);
    text = `${text.slice(0, start + 1)}${markdown.trimEnd()}\n${next < 0 ? '' : text.slice(next)}`;
  }
  writeFileSync(RESULTS, `${text.trimEnd()}\n`);
}

const dir = mkdtempSync(join(tmpdir(), 'coverage-batch-bench-'));
const key = `cov_bench_${randomBytes(16).toString('hex')}`;
const server = await startServer({ COVERAGE_DATA_DIR: dir, COVERAGE_DEV_KEY: key, LOG_LEVEL: 'warn' });
try {
  const body = JSON.stringify({ checks: schedule(ROWS) });
  const live = () =>
    fetch(`${server.url}/v1/estimate`, {
      method: 'POST',
      headers: { apikey: key, 'content-type': 'application/json' },
      body: JSON.stringify(schedule(1)[0]!.request),
    }).then((r) => r.arrayBuffer());
  const load = loadavg()[0]!;
  // Warm: the first check of a process pays for compiling the X12 and estimate code paths.
  for (let i = 0; i < 20; i++) await live();
  const started = performance.now();
  const res = await fetch(`${server.url}/v1/batches`, { method: 'POST', headers: { apikey: key, 'content-type': 'application/json' }, body });
  if (res.status !== 202) throw new Error(`POST /v1/batches answered ${res.status}: ${await res.text()}`);
  const { id } = (await res.json()) as { id: string };
  const accepted = performance.now();
  let progress: { status: string; done: number; outcomes: { outcome: string; count: number }[] };
  // A live check while the batch runs: it must not wait behind 10,000 rows.
  const liveMs: number[] = [];
  for (;;) {
    await new Promise((r) => setTimeout(r, 500));
    const t = performance.now();
    await live();
    liveMs.push(performance.now() - t);
    progress = (await (await fetch(`${server.url}/v1/batches/${id}`, { headers: { apikey: key } })).json()) as typeof progress;
    if (progress.status === 'completed') break;
  }
  const completed = performance.now();
  const results = await fetch(`${server.url}/v1/batches/${id}/results`, { headers: { apikey: key } });
  const resultBytes = (await results.arrayBuffer()).byteLength;
  const fetched = performance.now();
  const csv = await fetch(`${server.url}/v1/batches/${id}/results`, { headers: { apikey: key, accept: 'text/csv' } });
  const csvBytes = (await csv.arrayBuffer()).byteLength;
  const csvDone = performance.now();

  const seconds = (completed - started) / 1000;
  liveMs.sort((a, b) => a - b);
  const median = liveMs[Math.floor(liveMs.length / 2)]!;
  const outcomes = progress.outcomes.map((o) => `${o.outcome} ${o.count.toLocaleString('en-US')}`).join(', ');
  const cpu = cpus();
  const lines = [
    HEADING,
    '',
    `\`node --import tsx bench/batch-10k.ts\`: ${ROWS.toLocaleString('en-US')} sandbox estimates in one \`POST /v1/batches\` (JSON, ${(body.length / 1e6).toFixed(1)} MB) to \`coverage serve\` with SQLite and the default batch settings (16 rows at once, 4 per payer). Node ${process.version}, ${cpu.length} CPU(s) (${cpu[0]?.model.trim() ?? 'unknown'}), ${new Date().toISOString().slice(0, 10)}.`,
    '',
    '| step | time |',
    '|---|---:|',
    `| accepted (validated, stored, 202) | ${((accepted - started) / 1000).toFixed(2)} s |`,
    `| completed (every row has its result) | **${seconds.toFixed(1)} s** (${Math.round(ROWS / seconds).toLocaleString('en-US')} rows/s) |`,
    `| results as JSON (${(resultBytes / 1e6).toFixed(1)} MB) | ${((fetched - completed) / 1000).toFixed(2)} s |`,
    `| results as CSV (${(csvBytes / 1e6).toFixed(1)} MB) | ${((csvDone - fetched) / 1000).toFixed(2)} s |`,
    '',
    `Outcomes: ${outcomes}. Load average when it started: ${load.toFixed(1)} (other work on the machine slows every figure).`,
    '',
    `Real-time estimates sent every 0.5 s while the batch ran: ${liveMs.length}, median ${median.toFixed(0)} ms, slowest ${liveMs[liveMs.length - 1]!.toFixed(0)} ms.`,
  ];
  console.log(lines.join('\n'));
  if (!values['no-write']) replaceSection(lines.join('\n'));
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}

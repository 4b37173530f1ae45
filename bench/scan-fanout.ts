/**
 * Scan fan-out: /v1/scan over N simulated payers that each take 200 ms to answer. In parallel the
 * scan should take about one payer's latency whatever N is. Writes "## Scan fan-out" in bench/RESULTS.md.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { startProduction } from '../test/helpers/production.ts';

const LATENCY_MS = 200;
const ROUNDS = 5;
const SIZES = [1, 5, 20, 50];
const RESULTS = new URL('./RESULTS.md', import.meta.url);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const rows: string[] = [];
for (const n of SIZES) {
  const payerIds = ['SBX-EVERGREEN', ...Array.from({ length: n - 1 }, (_, i) => `SIM-PAYER-${String(i + 1).padStart(3, '0')}`)];
  const prod = await startProduction({
    latencyMs: LATENCY_MS,
    extraPayers: n - 1,
    payerIds,
    env: { COVERAGE_PAYER_TIMEOUT_MS: '5000', COVERAGE_SCAN_TIMEOUT_MS: '5000', COVERAGE_CACHE_TTL_MS: '0' },
  });
  const times: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const started = performance.now();
    const { status, body } = await prod.server.post('/v1/scan', { member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14', zip: '10001' });
    times.push(performance.now() - started);
    if (status !== 200 || body.payers_checked !== n) throw new Error(`scan over ${n} payers: ${status} ${JSON.stringify(body)}`);
  }
  await prod.close();
  const med = median(times);
  const line = `| ${n} | ${LATENCY_MS} | ${med.toFixed(0)} | ${Math.min(...times).toFixed(0)} | ${Math.max(...times).toFixed(0)} | ${(n * LATENCY_MS).toLocaleString('en-US')} |`;
  rows.push(line);
  process.stdout.write(`${n} payers: median ${med.toFixed(0)} ms (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)}) vs ${n * LATENCY_MS} ms sequential\n`);
}

const section = [
  '## Scan fan-out',
  '',
  `\`node --import tsx bench/scan-fanout.ts\`: \`POST /v1/scan\` in production mode over CAQH CORE SOAP to the payer simulator on loopback, every payer answering after ${LATENCY_MS} ms; ${ROUNDS} scans per size, cache off. Node ${process.version}, ${cpus().length} CPU(s), ${new Date().toISOString().slice(0, 10)}.`,
  '',
  '| payers | latency per payer (ms) | scan median (ms) | min | max | sequential would be (ms) |',
  '|---:|---:|---:|---:|---:|---:|',
  ...rows,
  '',
].join('\n');

const current = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '# Benchmark results\n';
const start = current.indexOf('## Scan fan-out');
let next: string;
if (start < 0) {
  next = `${current.trimEnd()}\n\n${section}`;
} else {
  const after = current.indexOf('\n## ', start + 1);
  next = current.slice(0, start) + section + (after < 0 ? '' : `\n${current.slice(after + 1)}`);
}
writeFileSync(RESULTS, next.trimEnd() + '\n');

/**
 * Scan fan-out: /v1/scan over N simulated payers that each take 200 ms to answer. In parallel the
 * scan should take about one payer's latency whatever N is. Writes "## Scan fan-out" in bench/RESULTS.md.
 */
import { cpus } from 'node:os';
import { pathToFileURL } from 'node:url';
import { startProduction } from '../test/helpers/production.ts';
import { replaceSection } from './lib/results.ts';

export const LATENCY_MS = 200;
const ROUNDS = 5;
const SIZES = [1, 5, 20, 50];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export interface FanoutRow {
  payers: number;
  median: number;
  min: number;
  max: number;
}

export async function runScanFanout(log: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<FanoutRow[]> {
  const rows: FanoutRow[] = [];
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
      const { status, body } = await prod.server.post('/v1/scan', {
        member_first_name: 'Avery',
        member_last_name: 'Walsh',
        member_dob: '1988-03-14',
        zip: '10001',
      });
      times.push(performance.now() - started);
      if (status !== 200 || body.payers_checked !== n) throw new Error(`scan over ${n} payers: ${status} ${JSON.stringify(body)}`);
    }
    await prod.close();
    const row = { payers: n, median: median(times), min: Math.min(...times), max: Math.max(...times) };
    rows.push(row);
    log(`${n} payers: median ${row.median.toFixed(0)} ms (min ${row.min.toFixed(0)}, max ${row.max.toFixed(0)}) vs ${n * LATENCY_MS} ms sequential`);
  }
  return rows;
}

export function fanoutSection(rows: FanoutRow[]): string {
  return [
    '## Scan fan-out',
    '',
    `\`node --import tsx bench/scan-fanout.ts\`: \`POST /v1/scan\` in production mode over CAQH CORE SOAP to the payer simulator on loopback, every payer answering after ${LATENCY_MS} ms; ${ROUNDS} scans per size, cache off. Node ${process.version}, ${cpus().length} CPU(s), ${new Date().toISOString().slice(0, 10)}.`,
    '',
    '| payers | latency per payer (ms) | scan median (ms) | min | max | sequential would be (ms) |',
    '|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.payers} | ${LATENCY_MS} | ${r.median.toFixed(0)} | ${r.min.toFixed(0)} | ${r.max.toFixed(0)} | ${(r.payers * LATENCY_MS).toLocaleString('en-US')} |`,
    ),
    '',
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  replaceSection('## Scan fan-out', fanoutSection(await runScanFanout()));
}

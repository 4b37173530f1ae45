/**
 * Soak: 60 s of mixed traffic on every endpoint against two servers at once, the sandbox and
 * production mode against the payer simulator with faults on (slow, busy, broken and silent
 * payers and members). Reports statuses and latency per kind of request, connection errors,
 * and each server's memory at the start and the end. Writes "## Soak" in bench/RESULTS.md.
 *
 *   node --import tsx bench/soak.ts [--seconds S]
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCoverageServer, type CoverageServer } from './lib/coverage-server.ts';
import { machine, replaceSection } from './lib/results.ts';
import { SIMULATOR_CREDENTIALS, startSimulator } from './lib/simulator.ts';
import { soakSection } from './lib/soak-report.ts';
import { GC_NODE_ARGS, soakServer, type ServerSoak } from './lib/soak-run.ts';

const FAULTS = {
  payers: {
    'SBX-BLUE': { fault: 'latency', latency_ms: 400 },
    'SBX-SILVER': { fault: 'aaa_42' },
    'SBX-EXCHANGE': { fault: 'malformed_x12' },
    'SBX-COMMUNITY': { fault: 'http_500' },
  },
  members: {
    '10011MHDM': { fault: 'timeout' },
    '10012MHDM': { fault: 'connection_reset' },
    '10013MHDM': { fault: 'soap_fault' },
    '10016MHDM': { fault: 'reject_999' },
  },
};

const i = process.argv.indexOf('--seconds');
const seconds = i > 0 ? Number(process.argv[i + 1]) : 60;

const sim = await startSimulator({ faults: FAULTS });
const gcFile = (name: string) => join(tmpdir(), `coverage-soak-${process.pid}-${name}.json`);
const servers: [string, CoverageServer, string][] = [
  ['sandbox', await startCoverageServer({ mode: 'sandbox', env: { BENCH_GC_FILE: gcFile('sandbox') }, nodeArgs: GC_NODE_ARGS }), gcFile('sandbox')],
  [
    'production, simulator with faults',
    await startCoverageServer({
      mode: 'production',
      env: {
        ...SIMULATOR_CREDENTIALS,
        COVERAGE_PAYERS: sim.directoryFile,
        COVERAGE_PAYER_TIMEOUT_MS: '2000',
        COVERAGE_SCAN_TIMEOUT_MS: '3000',
        BENCH_GC_FILE: gcFile('production'),
      },
      nodeArgs: GC_NODE_ARGS,
    }),
    gcFile('production'),
  ],
];
let results: ServerSoak[];
try {
  process.stdout.write(`soaking for ${seconds} s ...\n`);
  results = await Promise.all(servers.map(([name, server, file]) => soakServer(name, server, file, seconds)));
} finally {
  for (const [, server] of servers) await server.stop();
  await sim.stop();
}
const section = soakSection(results, { seconds, faults: FAULTS, machine: machine() });
process.stdout.write(`${section}\n`);
replaceSection('## Soak', section);

/**
 * `npm run bench`: the five figures, each beside its reference in the same run, printed with
 * their ratios and written to bench/RESULTS.md with the machine they ran on.
 *
 *   1. sandbox estimate (every production feature on) vs a bare Fastify hello-world POST
 *   2. production estimate against the payer simulator vs the simulator called directly
 *   3. scan latency over 1, 5, 20 and 50 payers at 200 ms each (bench/scan-fanout.ts)
 *   4. 271 parse + normalize vs node-x12 (bench/x12-parse.ts, in its own process)
 *   5. resident memory at 500 concurrent connections
 *   6. start-up: cold start to the first estimate, and `coverage --help` (bench/startup.ts)
 *
 * BENCH_ONLY=production runs figure 2 alone (both variants, the sandbox CPU comparison included) and
 * writes only its sections; BENCH_ONLY=production-remote runs only the 50 ms variant and prints its CPU
 * table without writing; BENCH_ROUNDS and BENCH_SECONDS shorten the rounds while iterating.
 *
 * The servers run the compiled build when dist/ is current (or BENCH_SERVICE / BENCH_DIST say
 * which), the TypeScript sources through tsx otherwise; the summary says which.
 */
import { loadavg } from 'node:os';
import { runEstimateVsHello } from './estimate-vs-hello.ts';
import { cpuSection, productionCpuSection } from './lib/cpu-report.ts';
import { explainSection } from './lib/explain.ts';
import { serviceEntry } from './lib/processes.ts';
import { estimateSection, memorySection, productionCpuFactor, productionSection, startupSection, summarySection, targets } from './lib/report.ts';
import { fmt, machine, replaceSection } from './lib/results.ts';
import { runX12Figure } from './lib/x12-figure.ts';
import { runMemory } from './memory.ts';
import { runProductionVsSimulator } from './production-vs-simulator.ts';
import { fanoutSection, runScanFanout } from './scan-fanout.ts';
import { runStartup } from './startup.ts';

/** A fast payer on another machine: the figure-2 variant where the payer, not the CPU, sets the pace. */
const REMOTE_PAYER_MS = 50;
const say = (line: string) => process.stdout.write(`${line}\n`);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
const loadBefore = load();
const started = Date.now();

const only = process.env.BENCH_ONLY;
const rounds = process.env.BENCH_ROUNDS ? { rounds: Number(process.env.BENCH_ROUNDS) } : {};
const seconds = process.env.BENCH_SECONDS ? { seconds: Number(process.env.BENCH_SECONDS) } : {};
if (only !== undefined && only !== 'production' && only !== 'production-remote') throw new Error(`BENCH_ONLY=${only}: "production" or "production-remote"`);

if (only === 'production-remote') {
  // Iterating on the production path: the 50 ms variant and its CPU table, printed, nothing written.
  const remote = await runProductionVsSimulator({ latencyMs: REMOTE_PAYER_MS, sandbox: true, ...rounds, ...seconds });
  say(`estimate ${fmt(remote.estimate.requestsPerSecond)} req/s vs simulator ${fmt(remote.simulator.requestsPerSecond)} req/s: ratio ${fmt(remote.ratio, 2)}`);
  say(productionCpuSection(remote));
  const leaves = remote.profiles!.production.cpu;
  say('production "other", by leaf frame (share of busy):');
  for (const [leaf, ms] of leaves.otherLeaves.slice(0, 15)) say(`  ${fmt((100 * ms) / leaves.busyMs, 1)} % ${leaf}`);
  process.exit(0);
}

async function figure2() {
  say('2. production estimate vs the simulator called directly ...');
  const production = await runProductionVsSimulator({ ...rounds, ...seconds });
  say(
    `   estimate ${fmt(production.estimate.requestsPerSecond)} req/s (p99 ${production.estimate.p99} ms) vs simulator ${fmt(production.simulator.requestsPerSecond)} req/s (p99 ${production.simulator.p99} ms): ratio ${fmt(production.ratio, 2)}`,
  );
  say(`   the same with the payer answering after ${REMOTE_PAYER_MS} ms, the sandbox estimate beside it ...`);
  const productionRemote = await runProductionVsSimulator({ latencyMs: REMOTE_PAYER_MS, sandbox: true, ...rounds, ...seconds });
  say(
    `   estimate ${fmt(productionRemote.estimate.requestsPerSecond)} req/s vs simulator ${fmt(productionRemote.simulator.requestsPerSecond)} req/s: ratio ${fmt(productionRemote.ratio, 2)}`,
  );
  say(
    `   CPU per estimate ${fmt(productionRemote.cpuPerRequestUs.production)} µs in production vs ${fmt(productionRemote.cpuPerRequestUs.sandbox ?? Number.NaN)} µs in the sandbox: ${fmt(productionCpuFactor(productionRemote), 2)}×`,
  );
  return { production, productionRemote };
}

if (only === 'production') {
  const { production, productionRemote } = await figure2();
  replaceSection('## Production estimate vs the simulator', productionSection(production, productionRemote));
  replaceSection("## Where the production estimate's CPU goes", productionCpuSection(productionRemote), { after: '## Production estimate vs the simulator' });
  say('bench/RESULTS.md: the production sections updated');
  process.exit(0);
}

say('1. sandbox estimate vs hello-world, 50 connections ...');
const estimate = await runEstimateVsHello();
say(
  `   estimate ${fmt(estimate.estimate.requestsPerSecond)} req/s (p99 ${estimate.estimate.p99} ms) vs hello-world ${fmt(estimate.hello.requestsPerSecond)} req/s (p99 ${estimate.hello.p99} ms): ratio ${fmt(estimate.ratio, 3)}`,
);

const { production, productionRemote } = await figure2();

say('3. scan fan-out at 200 ms per payer ...');
const fanout = await runScanFanout((line) => say(`   ${line}`));
say(`   50 payers / 1 payer: ${fmt(fanout.at(-1)!.median / fanout[0]!.median, 2)}`);

say('4. 271 parse + normalize vs node-x12 (bench/x12-parse.ts) ...');
const x12 = await runX12Figure();
say(`   ${fmt(x12.oursPerSecond)} vs ${fmt(x12.nodeX12PerSecond)} documents/s: ratio ${fmt(x12.ratio, 2)}`);

say('5. resident memory at 500 connections ...');
const memory = await runMemory();
say(
  `   service peak ${fmt(memory.service.rss.peak)} MB (before ${fmt(memory.service.rss.before)} MB), with COVERAGE_HEAP=small ${fmt(memory.serviceSmall.rss.peak)} MB, hello-world ${fmt(memory.hello.rss.peak)} MB`,
);

say('6. start-up: cold start and coverage --help ...');
const startup = await runStartup();
say(`   cold start ${fmt(startup.coldStart.median, 2)} s, coverage --help ${fmt(startup.help.median, 2)} s (${startup.entry})`);

const figures = { estimate, production, productionRemote, fanout, x12, memory, startup };
const entry = await serviceEntry();
const context =
  `${machine()}. The service ran ${entry.kind === 'dist' ? `compiled (${entry.script.replace(/\/cli\/main\.js$/, '/')}, as \`npm start\` runs it)` : 'from the TypeScript sources through tsx (no current dist/)'}. ` +
  `Load average (1/5/15 min) ${loadBefore} before the run and ${load()} after it: the machine is shared, and every figure ` +
  `that is a ratio was measured beside its reference in interleaved rounds so both sides see the same machine. The servers run in ` +
  `their own processes; autocannon runs in the bench process, so with 2 cores the server under load and the load generator each ` +
  `have about one. Whole run: ${fmt((Date.now() - started) / 1000)} s.`;
// Targets first, so the summary lands above them when both are new.
replaceSection('## Targets missed: where the gap comes from', explainSection(figures), { atTop: true });
replaceSection('## Summary (npm run bench)', summarySection(figures, context), { atTop: true });
replaceSection('## Sandbox estimate vs hello-world', estimateSection(estimate));
replaceSection("## Where the estimate's CPU goes", cpuSection(estimate));
replaceSection('## Production estimate vs the simulator', productionSection(production, productionRemote));
replaceSection("## Where the production estimate's CPU goes", productionCpuSection(productionRemote), { after: '## Production estimate vs the simulator' });
replaceSection('## Scan fan-out', fanoutSection(fanout));
replaceSection('## Memory at 500 connections', memorySection(memory));
replaceSection('## Start-up', startupSection(startup));

const met = targets(figures);
say('');
for (const [name, ok] of Object.entries(met)) say(`target ${name}: ${ok ? 'met' : 'MISSED'}`);
say('bench/RESULTS.md updated');

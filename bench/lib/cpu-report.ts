/** The profile of figure 1 as a table: CPU microseconds per request by where they go, estimate beside hello-world. */
import type { EstimateVsHello, ProfiledRun } from '../estimate-vs-hello.ts';
import type { ProductionVsSimulator } from '../production-vs-simulator.ts';
import { fmt } from './results.ts';

/** A category's share of the profiled busy time, applied to the CPU per request measured without the profiler. */
const perRequest = (run: ProfiledRun, ms: number, cpuPerRequestUs: number) => (ms / run.cpu.busyMs) * cpuPerRequestUs;

export function cpuSection(e: EstimateVsHello): string {
  const { estimate, hello } = e.profiles;
  const helloBy = new Map(hello.cpu.byCategory);
  const rows = estimate.cpu.byCategory
    .filter(([name]) => name !== 'idle')
    .map(
      ([name, ms]) =>
        `| ${name} | ${fmt(perRequest(estimate, ms, e.cpuPerRequestUs.estimate))} | ${fmt((100 * ms) / estimate.cpu.busyMs, 1)} % | ${helloBy.has(name) ? fmt(perRequest(hello, helloBy.get(name)!, e.cpuPerRequestUs.hello)) : ''} |`,
    );
  const estBusy = e.cpuPerRequestUs.estimate;
  const helloBusy = e.cpuPerRequestUs.hello;
  return [
    "## Where the estimate's CPU goes",
    '',
    `One more ${fmt(estimate.load.total / estimate.load.requestsPerSecond)}-second round of each server at ${e.connections} connections under the V8 sampling profiler ` +
      `(started and stopped by signal, so start-up is not in it; ${fmt(estimate.load.requestsPerSecond)} and ${fmt(hello.load.requestsPerSecond)} requests/s while profiled). ` +
      `Each sample is charged to the nearest frame of ours or of a known library, from the leaf up; each category's share of the busy samples is applied to the CPU per request ` +
      `measured from /proc over the unprofiled rounds (the profiler itself slows the process): **${fmt(estBusy)} µs** for the estimate, **${fmt(helloBusy)} µs** for hello-world ` +
      `(hello-world was idle ${fmt((100 * (hello.cpu.totalMs - hello.cpu.busyMs)) / hello.cpu.totalMs)} % of the time: it waits on the load generator).`,
    '',
    '| where | estimate µs per request | share of busy | hello-world µs per request |',
    '|---|---:|---:|---:|',
    ...rows,
    `| **total busy** | **${fmt(estBusy)}** | 100 % | **${fmt(helloBusy)}** |`,
    '',
  ].join('\n');
}

/** Figure 2's CPU comparison: per production estimate (payer answering after a delay) beside per sandbox estimate, same rounds. */
export function productionCpuSection(p: ProductionVsSimulator): string {
  if (!p.profiles || p.cpuPerRequestUs.sandbox === undefined) return '';
  const { production, sandbox } = p.profiles;
  const prodUs = p.cpuPerRequestUs.production;
  const sandUs = p.cpuPerRequestUs.sandbox;
  const sandboxBy = new Map(sandbox.cpu.byCategory);
  const names = [
    ...production.cpu.byCategory.map(([n]) => n),
    ...sandbox.cpu.byCategory.map(([n]) => n).filter((n) => !production.cpu.byCategory.some(([m]) => m === n)),
  ];
  const prodBy = new Map(production.cpu.byCategory);
  const rows = names
    .filter((name) => name !== 'idle')
    .map((name) => {
      const a = prodBy.has(name) ? perRequest(production, prodBy.get(name)!, prodUs) : 0;
      const b = sandboxBy.has(name) ? perRequest(sandbox, sandboxBy.get(name)!, sandUs) : 0;
      return `| ${name} | ${fmt(a)} | ${fmt((100 * (prodBy.get(name) ?? 0)) / production.cpu.busyMs, 1)} % | ${sandboxBy.has(name) ? fmt(b) : ''} | ${fmt(a - b)} |`;
    });
  return [
    "## Where the production estimate's CPU goes",
    '',
    `Figure 2 with the payer answering after ${p.latencyMs} ms, and a sandbox \`coverage serve\` (figure 1's service, which does the same X12 round trip in process) as a third side of the same interleaved rounds at ${p.connections} connections, ` +
      `held to the rate the production estimate reached in the round before it and sent its requests at an even pace, as the payer's answers spread production's (bench/lib/paced-load.ts): CPU per request falls as a server gets busier and when requests come in bursts, so both are compared at one load. ` +
      `Server CPU per estimate from /proc over the measured rounds: **${fmt(prodUs)} µs** in production (${fmt(p.estimate.requestsPerSecond)} estimates/s) against **${fmt(sandUs)} µs** in the sandbox (${fmt(p.sandbox!.requestsPerSecond)} estimates/s): ` +
      `**${fmt(prodUs / sandUs, 2)}×**. Then one more ${fmt(production.load.total / production.load.requestsPerSecond)}-second round of each under the V8 sampling profiler, charged as in the table above ` +
      `(the production service was idle ${fmt((100 * (production.cpu.totalMs - production.cpu.busyMs)) / production.cpu.totalMs)} % of the profiled time: it waits on the payer).`,
    '',
    '| where | production µs per estimate | share of busy | sandbox µs per estimate | production − sandbox |',
    '|---|---:|---:|---:|---:|',
    ...rows,
    `| **total busy** | **${fmt(prodUs)}** | 100 % | **${fmt(sandUs)}** | **${fmt(prodUs - sandUs)}** |`,
    '',
  ].join('\n');
}

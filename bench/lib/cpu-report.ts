/** The profile of figure 1 as a table: CPU microseconds per request by where they go, estimate beside hello-world. */
import type { EstimateVsHello, ProfiledRun } from '../estimate-vs-hello.ts';
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

/**
 * "## Targets missed: where the gap comes from", written from this run's figures. The one-off
 * measurements it cites (heap snapshot, allocation sampling) are labelled as such.
 */
import type { AllFigures } from './report.ts';
import { TARGETS, targets } from './report.ts';
import { IDLE_SETTLE_MS } from '../memory.ts';
import { fmt } from './results.ts';

/** CPU µs per estimate in the profile categories starting with `prefix` (their share applied to the measured CPU per request). */
const category = (f: AllFigures, prefix: string) => {
  const run = f.estimate.profiles.estimate;
  const ms = run.cpu.byCategory.filter(([name]) => name.startsWith(prefix)).reduce((n, [, v]) => n + v, 0);
  return (ms / run.cpu.busyMs) * f.estimate.cpuPerRequestUs.estimate;
};

/** The profile categories of figure 1, largest first, as "name N µs". */
const largest = (f: AllFigures, n: number) => {
  const run = f.estimate.profiles.estimate;
  return run.cpu.byCategory
    .filter(([name]) => name !== 'idle')
    .slice(0, n)
    .map(([name, ms]) => `${name.replace(/ \(.*\)$/, '')} ${fmt((ms / run.cpu.busyMs) * f.estimate.cpuPerRequestUs.estimate)} µs`);
};

export function explainSection(f: AllFigures): string {
  const t = targets(f);
  const estBusy = f.estimate.cpuPerRequestUs.estimate;
  const helloBusy = f.estimate.cpuPerRequestUs.hello;
  const x12 = category(f, 'X12');
  const meanWait = (f.estimate.connections / f.estimate.estimate.requestsPerSecond) * 1000;
  const m = f.memory;
  const st = f.startup;
  const lines = ['## Targets missed: where the gap comes from', ''];
  if (!t.estimateRatio || !t.estimateCpu || !t.estimateP99) {
    lines.push(
      `**1. Estimate vs hello-world (${fmt(f.estimate.ratio, 3)} of its requests/s; ${fmt(estBusy)} µs of CPU per estimate against a target of ${TARGETS.estimateCpuUs}).** ` +
        `Hello-world spends ${fmt(helloBusy)} µs per request answering a constant. The estimate checks the key, counts the rate limit, reads and validates a body, builds a 270, lets the sandbox payer parse it and write a 271, ` +
        `tokenizes and normalizes that 271, runs the estimate engine and plan rules, hashes the member for the audit record, serializes about 50 fields, logs a line and records metrics. ` +
        `The largest parts in this run's profile: ${largest(f, 5).join(', ')} (table under "Where the estimate's CPU goes"); the X12 round trip alone (${fmt(x12)} µs) is several hello-world requests. ` +
        `No single hot spot is left: reaching ${TARGETS.estimateCpuUs} µs means taking a little from every layer. ` +
        `The p99 target follows from throughput: one core serves ${f.estimate.connections} connections, so a request waits on average ${f.estimate.connections} ÷ ${fmt(f.estimate.estimate.requestsPerSecond)}/s = ${fmt(meanWait)} ms (Little's law) before any tail; ` +
        `p99 under ${TARGETS.estimateP99Ms} ms at ${f.estimate.connections} connections needs more than ${fmt(f.estimate.connections / (TARGETS.estimateP99Ms / 1000))} requests/s.`,
      '',
    );
  }
  if (!t.production) {
    lines.push(
      `**2. Production estimate vs the simulator (${fmt(f.production.ratio, 2)}×).** Three processes share two cores: the service, the simulator (which parses each 270 and writes a 271 per request, as the sandbox does in process) and autocannon. ` +
        `The reference sends the simulator its SOAP envelope directly, so the simulator gets the CPU the service would otherwise use; the service's own per-request work (figure 1, plus the SOAP envelope and undici) comes on top of the simulator's on the same cores, ` +
        `so on this machine the ratio measures how the two processes share two cores as much as the service's own cost (it reaches the payer through ${f.production.payerConnections} pooled connections).`,
      '',
    );
  }
  if (!t.productionRemote || !t.productionCpu) {
    const r = f.productionRemote;
    // The service runs on one thread: CPU per estimate times estimates per second is the share of a core it kept busy.
    const busy = (r.cpuPerRequestUs.production * r.estimate.requestsPerSecond) / 1e6;
    const needed = (TARGETS.productionRemoteRatio * r.simulator.requestsPerSecond * r.cpuPerRequestUs.production) / 1e6;
    lines.push(
      `**2. Production with the payer answering after ${r.latencyMs} ms (${fmt(r.ratio, 2)}× the simulator alone; ${fmt(r.cpuPerRequestUs.production)} µs of CPU per estimate against ${fmt(r.cpuPerRequestUs.sandbox ?? Number.NaN)} µs per sandbox estimate in the same rounds).** ` +
        `The production-only work is the CORE SOAP envelope written and read, undici's HTTP exchange and the connector's policies (bulkhead, retry, breaker, deadline), on top of the sandbox's; the table under "Where the production estimate's CPU goes" splits it by category. ` +
        (t.productionRemote
          ? ''
          : `At ${fmt(r.estimate.requestsPerSecond)} estimates/s and ${fmt(r.cpuPerRequestUs.production)} µs each, the service's one thread was busy ${fmt(100 * busy)} % of the time, beside the simulator and autocannon on the same two cores; ` +
            `${fmt(TARGETS.productionRemoteRatio, 1)}× the simulator's ${fmt(r.simulator.requestsPerSecond)}/s would keep it busy ${fmt(100 * needed)} % at this CPU per estimate, and requests queue behind each other (and behind garbage collection) well before 100 %. ` +
            `On this machine the figure is bound by the service's CPU, not by the payer's ${r.latencyMs} ms.`),
      '',
    );
  }
  if (!t.x12) {
    lines.push(
      `**4. 271 parse + normalize vs node-x12 (${fmt(f.x12.ratio, 2)}×).** Measured by bench/x12-parse.ts in its own process (its section has the corpus and the split between reading and normalizing); ` +
        `normalize271 tokenizes, checks the envelope, builds the HL loop tree and normalizes to Coverage, where node-x12 only parses. The X12 files belong to the X12 work.`,
      '',
    );
  }
  if (!t.idleMemory || !t.memory) {
    lines.push(
      `**5. Memory (idle ${fmt(m.service.idle?.settled ?? m.service.rss.before)} MB after ${IDLE_SETTLE_MS / 1000} s, ${fmt(m.service.idle?.justStarted ?? m.service.rss.before)} MB just after start; peak ${fmt(m.service.rss.peak)} MB at ${m.connections} connections).** A plain \`node\` that has loaded nothing is ${fmt(m.idle.node)} MB. ` +
        `The rest at idle is the service's code and data (about 30 MB of live old-generation heap after a full collection: Fastify with its compiled validators and serializers, the OpenAPI document, Kysely, the sandbox catalog) ` +
        `and, just after start, a young generation that start-up's allocations have grown to its 32 MB maximum: V8's memory reducer gives it back once the process has been quiet for some 10-20 s, hence the two idle figures ` +
        `(\`node --max-semi-space-size=4\` starts the same service about 15 MB smaller from the first second, measured once). ` +
        `Under load the growth is garbage: with ${m.connections} requests in flight each one's objects outlive young-generation collections and are promoted, and the old generation swells between full collections. ` +
        `\`coverage serve\` keeps V8's default heap sizing (COVERAGE_HEAP=fast), which lets the old generation grow well past its live size under load; ` +
        `with optimize-for-size (COVERAGE_HEAP=small) the same load peaks at ${fmt(m.serviceSmall.rss.peak)} MB (${fmt(m.serviceSmall.load.requestsPerSecond)} requests/s against ${fmt(m.service.load.requestsPerSecond)} as shipped, in this run), for about twice the CPU per production estimate (docs/operating.md).`,
      '',
    );
  }
  if (!t.coldStart || !t.help) {
    lines.push(
      `**6. Start-up (cold start ${fmt(st.coldStart.median, 2)} s, \`coverage --help\` ${fmt(st.help.median, 2)} s, ${st.entry === 'dist' ? 'compiled build' : 'through tsx'}).** ` +
        `Cold start is mostly loading and compiling modules (Fastify and its plugins, Kysely and the database drivers, prom-client, the console and OpenAPI plugins), then Fastify compiling every route's validators and serializers; ` +
        `the first estimate also compiles the serializers' lazy validators for the response's nullable fields. \`coverage --help\` loads commander and the command table only.`,
      '',
    );
  }
  if (lines.length === 2) lines.push('Every target was met in this run.', '');
  return lines.join('\n');
}

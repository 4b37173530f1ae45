/**
 * The production payer path alone (issue 27): CPU per CORE SOAP exchange of two builds' ProductionNetwork
 * in this one process, against one simulator child answering after BENCH_LATENCY_MS (50), in
 * alternating rounds, with BENCH_CONCURRENCY exchanges (50) in flight. What each build's network,
 * connector, envelope, undici and sockets cost per exchange, without the service around it, so the
 * load of a shared machine falls on both builds alike. The builds: BENCH_DIST_A (/work/wt/base/dist
 * by default) and BENCH_DIST_B (this worktree's dist/).
 *
 *   node --import tsx bench/payer-path.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildInquiry } from '../src/operations/inquiry.ts';
import { build270 } from '../src/x12/index.ts';
import { ESTIMATE_REQUEST } from './estimate-vs-hello.ts';
import { SIMULATOR_CREDENTIALS, startSimulator } from './lib/simulator.ts';

interface Network {
  exchange(payerId: string, x12: string, ctx: { request_id: string; deadline: number; client_ips?: readonly string[] }): Promise<string>;
  close(): Promise<void>;
}

const ROOT = join(import.meta.dirname, '..');
const builds = [process.env.BENCH_DIST_A ?? '/work/wt/base/dist', process.env.BENCH_DIST_B ?? join(ROOT, 'dist')];
const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 50);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 8);
const seconds = Number(process.env.BENCH_SECONDS ?? 3);

const sim = await startSimulator({ latencyMs });
const directory = JSON.parse(readFileSync(sim.directoryFile, 'utf8')) as typeof sim.directory;
for (const payer of directory.payers) payer.max_concurrency = concurrency;
writeFileSync(sim.directoryFile, JSON.stringify(directory, null, 2));

const payerId = ESTIMATE_REQUEST.payer_id;
const x12 = build270(
  buildInquiry(
    {
      payer_id: payerId,
      member_id: ESTIMATE_REQUEST.member_id,
      first_name: ESTIMATE_REQUEST.member_first_name,
      last_name: ESTIMATE_REQUEST.member_last_name,
      dob: ESTIMATE_REQUEST.member_dob,
      provider_npi: ESTIMATE_REQUEST.provider_npi,
    },
    new Date().toISOString().slice(0, 10),
  ),
  { control_number: 1 },
);

const networks: Network[] = [];
for (const dist of builds) {
  const { loadDirectory } = (await import(pathToFileURL(join(dist, 'payers', 'directory.js')).href)) as { loadDirectory: (f: string) => unknown };
  const { ProductionNetwork } = (await import(pathToFileURL(join(dist, 'payers', 'production', 'network.js')).href)) as {
    ProductionNetwork: new (d: unknown, o: object) => Network;
  };
  networks.push(new ProductionNetwork(loadDirectory(sim.directoryFile), { timeoutMs: 20_000, env: { ...process.env, ...SIMULATOR_CREDENTIALS } }));
}

async function round(network: Network, ms: number): Promise<{ exchanges: number; cpuUs: number }> {
  const until = performance.now() + ms;
  let exchanges = 0;
  const before = process.cpuUsage();
  const loop = async () => {
    while (performance.now() < until) {
      const answer = await network.exchange(payerId, x12, { request_id: 'bench', deadline: Date.now() + 20_000, client_ips: ['127.0.0.1'] });
      if (!answer.startsWith('ISA')) throw new Error('not an X12 answer');
      exchanges++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const used = process.cpuUsage(before);
  return { exchanges, cpuUs: used.user + used.system };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
try {
  // Warm-up: connections, and the JIT (each build has its own copy of every function to optimize).
  const warmupMs = Number(process.env.BENCH_WARMUP_MS ?? 8000);
  for (let w = 0; w < 4; w++) for (const n of networks) await round(n, warmupMs / 4);
  const perExchange: number[][] = networks.map(() => []);
  const rates: number[][] = networks.map(() => []);
  for (let r = 0; r < rounds; r++) {
    // Alternate which build goes first, so neither always follows the other.
    const order = r % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) {
      const { exchanges, cpuUs } = await round(networks[i]!, seconds * 1000);
      perExchange[i]!.push(cpuUs / exchanges);
      rates[i]!.push(exchanges / seconds);
    }
  }
  builds.forEach((dist, i) =>
    console.log(
      `${dist}: median ${median(perExchange[i]!).toFixed(0)} µs CPU per exchange (rounds: ${perExchange[i]!.map((x) => x.toFixed(0)).join(', ')}), ${median(rates[i]!).toFixed(0)} exchanges/s`,
    ),
  );
  const ratios = perExchange[1]!.map((b, k) => b / perExchange[0]![k]!);
  console.log(`B/A per round: ${ratios.map((x) => x.toFixed(3)).join(', ')}; median ${median(ratios).toFixed(3)}`);
} finally {
  await Promise.all(networks.map((n) => n.close()));
  await sim.stop();
}

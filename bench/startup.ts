/**
 * Figure 6: start-up. Cold start is the time from spawning `coverage serve` (sandbox, a fresh
 * SQLite store, every feature on) to its first 200 from POST /v1/estimate, with the CPU time the
 * server used until then (what a busy machine inflates least); `coverage --help` is the time from
 * spawning the CLI to its exit. Each is the median of a few runs, started one after another, of the
 * build serviceEntry() picks (the compiled dist/ when current), with the node flags users' launch
 * paths give it.
 *
 * `node --import tsx bench/startup.ts [runs]` prints every run; with BENCH_COMPARE_DIST=dir it
 * alternates runs of that build (and its checkout's launch flags) with this one.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ESTIMATE_BODY } from './estimate-vs-hello.ts';
import { pathToFileURL } from 'node:url';
import { cleanEnv, cpuMs, freePort, launchFlags, ROOT, serviceEntry } from './lib/processes.ts';

export interface StartupFigure {
  entry: 'dist' | 'src';
  /** Seconds from spawn to the first 200 of /v1/estimate: every run, and their median. */
  coldStart: { runs: number[]; median: number };
  /** CPU seconds (user + system) the server used until that first 200: every run, and their median. */
  coldStartCpu: { runs: number[]; median: number };
  /** Seconds from spawn to exit of `coverage --help`. */
  help: { runs: number[]; median: number };
}

const BENCH_DEV_KEY = 'cov_test_bench_cold_start_key_000000001';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const nodeArgs = (script: string, flags: string[]) => (script.endsWith('.js') ? [...flags, script] : ['--import', 'tsx', ...flags, script]);

interface Entry {
  script: string;
  nodeArgs: string[];
}

async function coldStart({ script, nodeArgs: flags }: Entry): Promise<{ wall: number; cpu: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'coverage-bench-start-'));
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs(script, flags), 'serve'], {
    cwd: ROOT,
    env: cleanEnv({
      COVERAGE_DATA_DIR: join(dir, 'data'),
      COVERAGE_MODE: 'sandbox',
      COVERAGE_DEV_KEY: BENCH_DEV_KEY,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    }),
    stdio: 'ignore',
  });
  const exited = once(child, 'exit');
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`coverage serve exited (${child.exitCode}) before answering`);
      if (performance.now() - started > 30_000) throw new Error('coverage serve gave no 200 within 30 s');
      const status = await fetch(`http://127.0.0.1:${port}/v1/estimate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', apikey: BENCH_DEV_KEY },
        body: ESTIMATE_BODY,
      }).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) return { wall: (performance.now() - started) / 1000, cpu: cpuMs(child.pid!) / 1000 };
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

async function help({ script, nodeArgs: flags }: Entry): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs(script, flags), '--help'], { cwd: ROOT, env: cleanEnv({}), stdio: 'ignore' });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`coverage --help exited with ${code}`);
  return (performance.now() - started) / 1000;
}

export async function runStartup(opts: { runs?: number } = {}): Promise<StartupFigure> {
  const runs = opts.runs ?? 5;
  const entry = await serviceEntry();
  const cold: number[] = [];
  const cpu: number[] = [];
  const helps: number[] = [];
  for (let i = 0; i < runs; i++) {
    const run = await coldStart(entry);
    cold.push(run.wall);
    cpu.push(run.cpu);
    helps.push(await help(entry));
  }
  return {
    entry: entry.kind,
    coldStart: { runs: cold, median: median(cold) },
    coldStartCpu: { runs: cpu, median: median(cpu) },
    help: { runs: helps, median: median(helps) },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const runs = Number(process.argv[2] ?? 5);
  const compareDist = process.env.BENCH_COMPARE_DIST;
  const entry = await serviceEntry();
  const sides: [string, Entry][] = [[entry.script, entry]];
  if (compareDist) sides.push([compareDist, { script: join(compareDist, 'cli', 'main.js'), nodeArgs: launchFlags(join(compareDist, '..')) }]);
  const results = sides.map(() => ({ wall: [] as number[], cpu: [] as number[], help: [] as number[] }));
  for (let i = 0; i < runs; i++) {
    for (const [j, [, side]] of sides.entries()) {
      const run = await coldStart(side);
      results[j]!.wall.push(run.wall);
      results[j]!.cpu.push(run.cpu);
      results[j]!.help.push(await help(side));
    }
  }
  const list = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' ');
  for (const [j, [name, side]] of sides.entries()) {
    const r = results[j]!;
    console.log(`${name} ${side.nodeArgs.join(' ')}`);
    console.log(`  cold start wall ${median(r.wall).toFixed(2)} s [${list(r.wall)}]`);
    console.log(`  cold start CPU  ${median(r.cpu).toFixed(2)} s [${list(r.cpu)}]`);
    console.log(`  --help wall     ${median(r.help).toFixed(2)} s [${list(r.help)}]`);
  }
}

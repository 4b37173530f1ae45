/**
 * Figure 6: start-up. Cold start is the time from spawning `coverage serve` (sandbox, a fresh
 * SQLite store, every feature on) to its first 200 from POST /v1/estimate; `coverage --help` is
 * the time from spawning the CLI to its exit. Each is the median of a few runs, started one after
 * another, of the build serviceEntry() picks (the compiled dist/ when current).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ESTIMATE_BODY } from './estimate-vs-hello.ts';
import { cleanEnv, freePort, ROOT, serviceEntry } from './lib/processes.ts';

export interface StartupFigure {
  entry: 'dist' | 'src';
  /** Seconds from spawn to the first 200 of /v1/estimate: every run, and their median. */
  coldStart: { runs: number[]; median: number };
  /** Seconds from spawn to exit of `coverage --help`. */
  help: { runs: number[]; median: number };
}

const BENCH_DEV_KEY = 'cov_test_bench_cold_start_key_000000001';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const nodeArgs = (script: string) => (script.endsWith('.js') ? [script] : ['--import', 'tsx', script]);

async function coldStart(script: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'coverage-bench-start-'));
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs(script), 'serve'], {
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
      if (status === 200) return (performance.now() - started) / 1000;
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

async function help(script: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs(script), '--help'], { cwd: ROOT, env: cleanEnv({}), stdio: 'ignore' });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`coverage --help exited with ${code}`);
  return (performance.now() - started) / 1000;
}

export async function runStartup(opts: { runs?: number } = {}): Promise<StartupFigure> {
  const runs = opts.runs ?? 5;
  const entry = await serviceEntry();
  const cold: number[] = [];
  const helps: number[] = [];
  for (let i = 0; i < runs; i++) {
    cold.push(await coldStart(entry.script));
    helps.push(await help(entry.script));
  }
  return { entry: entry.kind, coldStart: { runs: cold, median: median(cold) }, help: { runs: helps, median: median(helps) } };
}

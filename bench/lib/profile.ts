/** Profiles a server child (started with PROFILE_NODE_ARGS) for the length of some work. */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Profiler } from 'node:inspector';
import { breakdown, type CpuBreakdown } from './cpu-profile.ts';

export const PROFILE_NODE_ARGS = ['--import', fileURLToPath(new URL('./profile-hook.mjs', import.meta.url))];

let counter = 0;
/** A fresh file name for BENCH_PROFILE_FILE. */
export const profileFile = () => join(tmpdir(), `coverage-bench-${process.pid}-${++counter}.cpuprofile`);

export interface Profiled<T> {
  result: T;
  cpu: CpuBreakdown;
}

export async function profileWhile<T>(pid: number, file: string, work: () => Promise<T>): Promise<Profiled<T>> {
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  await new Promise((r) => setTimeout(r, 200));
  const result = await work();
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + 15_000;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`no CPU profile written to ${file}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profiler.Profile;
  // BENCH_KEEP_PROFILE=dir keeps each profile for Chrome DevTools or a closer look.
  if (process.env.BENCH_KEEP_PROFILE) {
    mkdirSync(process.env.BENCH_KEEP_PROFILE, { recursive: true });
    copyFileSync(file, join(process.env.BENCH_KEEP_PROFILE, basename(file)));
  }
  rmSync(file, { force: true });
  return { result, cpu: breakdown(profile) };
}

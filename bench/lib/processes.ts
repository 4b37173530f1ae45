/** Servers under test run in their own processes, so the load generator never shares their event loop. */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Child {
  url: string;
  pid: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * The service's CLI entry the bench runs: the compiled build (as `npm start` runs it) when
 * BENCH_SERVICE=dist, or by default when dist/ exists and is current; the TypeScript sources
 * through tsx when BENCH_SERVICE=src or the build is missing or older than src/. BENCH_DIST
 * points at another build directory. `nodeArgs` are the node flags the shipped launch paths give
 * (launchFlags): the bench starts the service with them, so its figures are the users'.
 */
export async function serviceEntry(): Promise<{ kind: 'dist' | 'src'; script: string; nodeArgs: string[] }> {
  const dist = process.env.BENCH_DIST ?? join(ROOT, 'dist');
  const compiled = { kind: 'dist' as const, script: join(dist, 'cli', 'main.js'), nodeArgs: launchFlags(join(dist, '..')) };
  const sources = { kind: 'src' as const, script: 'src/cli/main.ts', nodeArgs: launchFlags(ROOT) };
  if (process.env.BENCH_SERVICE === 'src') return sources;
  if (process.env.BENCH_SERVICE === 'dist') {
    if (!existsSync(compiled.script)) throw new Error(`BENCH_SERVICE=dist: no ${compiled.script}; run npm run build`);
    return compiled;
  }
  if (!existsSync(compiled.script)) return sources;
  if (process.env.BENCH_DIST) return compiled;
  const { distState } = (await import(join(ROOT, 'bin', 'dist-state.js'))) as { distState: () => string | null };
  return distState() === null ? compiled : sources;
}

/**
 * The node flags of a checkout's `coverage` command: those on bin/coverage.js's first line
 * (`#!/usr/bin/env -S node FLAGS`; `npm start` gives the same, test/cli/launch-flags.test.ts).
 * BENCH_NODE_FLAGS replaces them (empty: none), to compare settings.
 */
export function launchFlags(checkout: string): string[] {
  const override = process.env.BENCH_NODE_FLAGS;
  if (override !== undefined) return override.split(/\s+/).filter(Boolean);
  const bin = join(checkout, 'bin', 'coverage.js');
  if (!existsSync(bin)) return [];
  const first = readFileSync(bin, 'utf8').split('\n', 1)[0]!;
  const flags = /^#!\/usr\/bin\/env (?:-S )?node((?: --[\w-]+(?:=\S+)?)*)$/.exec(first);
  if (!flags) throw new Error(`${bin}: its first line is not \`#!/usr/bin/env [-S] node [FLAGS]\`: ${first}`);
  return flags[1]!.split(' ').filter(Boolean);
}

/** `node ARGS` for a compiled script, `node --import tsx ARGS` for TypeScript. */
const nodeArgsFor = (args: string[], extra: string[] = []) => (/\.m?js$/.test(args[0] ?? '') ? [...extra, ...args] : ['--import', 'tsx', ...extra, ...args]);

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The parent's environment without anything that would choose a store, a key or a mode for the child. */
export function cleanEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(base)) {
    if (name.startsWith('COVERAGE_') || ['DATABASE_URL', 'REDIS_URL', 'PORT', 'HOST', 'LOG_LEVEL', 'NODE_TEST_CONTEXT'].includes(name)) delete base[name];
  }
  return { ...base, ...env };
}

/** Runs `node ARGS` (through tsx for TypeScript) to completion and returns its stdout. */
export async function runNode(args: string[], env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, nodeArgsFor(args), { cwd: ROOT, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${code}:\n${stderr}`);
  return stdout;
}

/**
 * Starts a long-running `node ARGS` (through tsx for TypeScript) whose stdout goes to `stdoutFile` (its log), and
 * waits until GET `${url}${readyPath}` answers 200.
 */
export async function startNode(
  args: string[],
  opts: { env: Record<string, string>; port: number; stdoutFile: string; readyPath: string; nodeArgs?: string[] },
): Promise<Child> {
  const out = openSync(opts.stdoutFile, 'w');
  const child = spawn(process.execPath, nodeArgsFor(args, opts.nodeArgs), {
    cwd: ROOT,
    env: cleanEnv(opts.env),
    stdio: ['ignore', out, 'pipe'],
  });
  closeSync(out);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = once(child, 'exit');
  const url = `http://127.0.0.1:${opts.port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited (${child.exitCode}) before it was ready:\n${stderr}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${args.join(' ')} not ready after 30 s:\n${stderr}`);
    }
    const ok = await fetch(url + opts.readyPath, { method: 'GET' }).then(
      (r) => r.status < 500,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid!,
    process: child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resident set size of a process in MB, from /proc (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status);
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb[1]) / 1024;
}

/** CPU time (user + system) a process has used, in ms, from /proc (Linux; clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may contain spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

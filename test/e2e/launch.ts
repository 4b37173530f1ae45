/**
 * The service started the way its users start it, for the end-to-end suite (CONTRIBUTING.md, "The
 * end-to-end suite"). In a checkout: `npm start` (dist/cli/main.js, the esbuild bundle) and the
 * `coverage` bin (bin/coverage.js, which runs the same bundle once dist/ is current). With
 * COVERAGE_E2E_INSTALL naming a directory where the packed tarball is installed (scripts/pack-check.sh
 * sets it): that install's `coverage serve` and `coverage` bin. The tests see only HTTP, stdout and exit codes.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NO_SHEDDING } from '../support/no-shedding.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const INSTALL = process.env.COVERAGE_E2E_INSTALL || null;

/** What the suite runs, for the tests' names. */
export const TARGET = INSTALL ? "the packed tarball's coverage serve" : 'npm start (the built bundle)';

/** In a checkout, builds dist/ when it is missing or older than the sources, so the bin runs the bundle and not tsx. */
export async function prepare(): Promise<void> {
  if (INSTALL) return;
  const build = spawnSync(process.execPath, ['scripts/ensure-build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, build.stderr);
  const { distState } = (await import(join(ROOT, 'bin', 'dist-state.js'))) as { distState: () => string | null };
  assert.equal(distState(), null, 'dist/ is current, so the coverage bin runs the bundle');
}

/** The environment a user's shell would have: none of the parent's settings of the service, a free port on loopback. */
function userEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(base)) {
    if (/^(COVERAGE_|npm_)/.test(name) || ['DATABASE_URL', 'REDIS_URL', 'PORT', 'HOST', 'NODE_TEST_CONTEXT', 'NODE_OPTIONS'].includes(name)) delete base[name];
  }
  // Shedding answers 503 when the event loop lags, which a machine busy with other suites causes (test/support/no-shedding.ts).
  return { ...base, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...NO_SHEDDING, ...env };
}

function command(args: string[]): { file: string; argv: string[]; cwd: string } {
  if (INSTALL) return { file: join(INSTALL, 'node_modules', '.bin', 'coverage'), argv: args, cwd: INSTALL };
  return { file: process.execPath, argv: [join(ROOT, 'bin', 'coverage.js'), ...args], cwd: ROOT };
}

export interface Running {
  /** The first `http://...` address the process printed after `waitFor`'s text. */
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts a long-running process in a process group of its own (so stopping it reaches whatever it
 * started, as Ctrl-C does), and resolves once its stdout matches `ready` (group 1 is the URL).
 */
async function startProcess(file: string, argv: string[], cwd: string, env: Record<string, string>, ready: RegExp): Promise<Running> {
  const child = spawn(file, argv, { cwd, env: userEnv(env), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    process.kill(-child.pid!, 'SIGTERM');
    const bound = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, 20_000);
    await exited;
    clearTimeout(bound);
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const look = () => {
        const match = ready.exec(output);
        if (match) resolve(match[1]!.replace('localhost', '127.0.0.1'));
      };
      child.stdout.on('data', look);
      void exited.then(([code]) => reject(new Error(`${[file, ...argv].join(' ')} exited (${String(code)}) before it was ready:\n${output}`)));
      // A start that hangs fails the suite with what it printed instead of holding it.
      setTimeout(() => reject(new Error(`${[file, ...argv].join(' ')} not ready within 120 s:\n${output}`)), 120_000).unref();
    });
    return { url, output: () => output, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The server as users start it: `npm start` in a checkout, `coverage serve` from the packed install. */
export function serve(env: Record<string, string>): Promise<Running> {
  const ready = /listening on (http:\/\/\S+)/;
  if (INSTALL) {
    const { file, argv, cwd } = command(['serve']);
    return startProcess(file, argv, cwd, env, ready);
  }
  return startProcess('npm', ['start'], ROOT, env, ready);
}

/** `coverage simulate-payer ...`, running until stopped; ready once it prints the command to run the service against it. */
export function simulatePayer(args: string[]): Promise<Running> {
  const { file, argv, cwd } = command(['simulate-payer', ...args]);
  return startProcess(file, argv, cwd, {}, /listening on (http:\/\/\S+)[\s\S]*Run the service against it/);
}

/** One `coverage ...` run to its end; `input` is its stdin (a password for --password-stdin). */
export async function coverage(args: string[], env: Record<string, string>, input?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { file, argv, cwd } = command(args);
  const child = spawn(file, argv, { cwd, env: userEnv(env), stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
  if (input !== undefined) child.stdin!.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

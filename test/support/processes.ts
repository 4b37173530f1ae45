/** The `coverage` command as separate processes: servers (serve) and one-shot CLI runs, with a controlled environment. */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NO_SHEDDING } from './no-shedding.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { distState } = (await import(join(ROOT, 'bin', 'dist-state.js'))) as { distState: () => string | null };
/**
 * The compiled CLI when dist/ is current (as after `npm ci`, whose prepare builds it: what ships),
 * the sources through tsx when it is missing or older than src/. A compiled start takes a third
 * of the time, and the suite starts the CLI some hundred times.
 */
const MAIN = existsSync(join(ROOT, 'dist', 'cli', 'main.js')) && distState() === null ? ['dist/cli/main.js'] : ['--import', 'tsx', 'src/cli/main.ts'];

/** The parent's environment without anything that would choose a store, a key or a mode for the child. */
function childEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(base)) {
    if (name.startsWith('COVERAGE_') || name === 'DATABASE_URL' || name === 'REDIS_URL' || name === 'PORT' || name === 'NODE_TEST_CONTEXT') delete base[name];
  }
  return { ...base, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...NO_SHEDDING, ...env };
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): { stdout: string; stderr: string };
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

export async function startServer(env: Record<string, string | undefined>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...MAIN, 'serve'], { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = once(child, 'close').then(([code]) => code as number | null);
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1]!.replace('localhost', '127.0.0.1'));
    });
    void exited.then((code) => reject(new Error(`server exited (${code}) before listening:\n${stderr}`)));
  });
  return {
    url,
    child,
    output: () => ({ stdout, stderr }),
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** `input`, when given, is the child's stdin (such as a password for --password-stdin). */
export async function runCli(
  args: string[],
  env: Record<string, string | undefined>,
  input?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...MAIN, ...args], {
    cwd: ROOT,
    env: childEnv(env),
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (input !== undefined) child.stdin!.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

/**
 * Does a sign-in flood starve the service (issue 39, item 3)? Twenty sign-ins for made-up usernames
 * sent at once from one address (within its allowance), and meanwhile: the console page (a static
 * file, read on libuv's thread pool), /healthz, and one sign-in of a made-up user sent 100 ms into
 * the flood (the time a real person waits for an answer, whatever it is). Beside the same requests
 * with nothing else going on. Wall times: read them beside the idle row of the same run. Prints the
 * figures; bench/RESULTS.md's "A sign-in flood" section is written by hand from them.
 * Run: node --import tsx bench/sign-in-flood.ts
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServer } from '../test/support/processes.ts';

const dir = mkdtempSync(join(tmpdir(), 'coverage-sign-in-flood-'));
// The address's allowance is raised so the person's sign-in is not refused for sharing the flood's address.
const server = await startServer({
  COVERAGE_DATA_DIR: dir,
  COVERAGE_DEV_KEY: `cov_bench_${randomBytes(16).toString('hex')}`,
  COVERAGE_CONSOLE_SIGN_INS_PER_MINUTE: '1000',
  LOG_LEVEL: 'warn',
});

const timed = async (path: string, init?: RequestInit): Promise<{ ms: number; status: number }> => {
  const t = performance.now();
  const res = await fetch(`${server.url}${path}`, init);
  await res.arrayBuffer();
  return { ms: performance.now() - t, status: res.status };
};
const signIn = (username: string) =>
  timed('/console/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-coverage-console': '1' },
    body: JSON.stringify({ username, password: 'a password nobody has' }),
  });
const row = (what: string, r: { ms: number; status: number }) => `| ${what} | ${r.status} | ${r.ms.toFixed(0)} ms |`;

try {
  // Warm: routes compiled, argon2 loaded.
  await timed('/console/');
  await signIn('warm-up');
  console.log(`Load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);
  console.log('| request | status | answered in |');
  console.log('|---|---|---|');
  console.log(row('idle: the console page', await timed('/console/')));
  console.log(row('idle: /healthz', await timed('/healthz')));
  console.log(row('idle: a sign-in', await signIn('idle-person')));
  const t = performance.now();
  const flood = Array.from({ length: 19 }, (_, i) => signIn(`made-up-${i}`));
  await sleep(100);
  const [page, health, person] = await Promise.all([timed('/console/'), timed('/healthz'), signIn('real-person')]);
  const answers = await Promise.all(flood);
  const last = performance.now() - t;
  console.log(row('flood: the console page', page));
  console.log(row('flood: /healthz', health));
  console.log(row('flood: a sign-in sent 100 ms in', person));
  const counts = new Map<number, number>();
  for (const a of answers) counts.set(a.status, (counts.get(a.status) ?? 0) + 1);
  console.log(
    `\nThe flood's ${answers.length} sign-ins: ${[...counts].map(([s, n]) => `${n} answered ${s}`).join(', ')}; the last after ${last.toFixed(0)} ms`,
  );
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}

/**
 * `coverage serve` writes its log to standard output in chunks (http/logging.ts): a line reaches
 * the output within the flush interval even when nothing else is logged, and every line logged
 * before a SIGTERM is out when the process has exited.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AVERY_ESTIMATE, postCheck } from '../support/checks.ts';
import { startServer } from '../support/processes.ts';
import { sandboxKey, sqliteStore } from '../support/stores.ts';
import { eventually } from '../helpers/eventually.ts';

const requestLines = (stdout: string) => stdout.split('\n').filter((l) => l.includes('"msg":"request"'));

test('serve: a lone request line is written within the flush interval, and nothing is lost at SIGTERM', async (t) => {
  const store = await sqliteStore();
  t.after(() => store.cleanup());
  const secret = await sandboxKey(store, 'logs', 100_000);
  const server = await startServer({ COVERAGE_DATA_DIR: store.env.COVERAGE_DATA_DIR, LOG_LEVEL: 'info' });
  t.after(() => server.stop());

  // One request: its line alone is far below the 4 KB chunk, so only the periodic flush writes it.
  assert.equal((await postCheck(server.url, secret, AVERY_ESTIMATE)).status, 200);
  await eventually('the request line written', () => requestLines(server.output().stdout).length >= 1, { pauseMs: 50 });
  assert.equal(requestLines(server.output().stdout).length, 1, 'the request line was not written within 10 s');

  const more = 30;
  for (let i = 0; i < more; i++) assert.equal((await postCheck(server.url, secret, AVERY_ESTIMATE)).status, 200);
  assert.equal(await server.stop(), 0, server.output().stderr);
  const stdout = server.output().stdout;
  assert.equal(requestLines(stdout).length, 1 + more);
  assert.match(stdout, /"msg":"shutting down"/);
});

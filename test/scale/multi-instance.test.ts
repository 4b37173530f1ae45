/**
 * Two server processes on one PostgreSQL and one Redis: a key made through the CLI works on both,
 * the 51st check of a minute is refused by whichever instance gets it, and a revoke reaches both.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { postCheck } from '../support/checks.ts';
import { eventually } from '../helpers/eventually.ts';
import { usageCounts } from '../../src/store/usage.ts';
import { runCli, startServer, type ServerProcess } from '../support/processes.ts';
import { needsPostgresAndRedis, postgresStore, REDIS_URL } from '../support/stores.ts';

test('two instances share keys, rate limits and revocations', { skip: needsPostgresAndRedis() }, async (t) => {
  const store = await postgresStore();
  const servers: ServerProcess[] = [];
  t.after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await store.cleanup();
  });
  // Both start at once with the same dev key: migrations and key registration must not trip over each other.
  const env = { ...store.env, REDIS_URL, COVERAGE_DEV_KEY: `cov_test_${randomBytes(16).toString('hex')}` };
  servers.push(...(await Promise.all([startServer(env), startServer(env)])));
  const [a, b] = servers as [ServerProcess, ServerProcess];

  const created = await runCli(['keys', 'create', '--name', 'multi-instance', '--env', 'sandbox'], env);
  assert.equal(created.code, 0, created.stderr);
  const secret = created.stdout.trim();
  assert.match(created.stdout, /^cov_test_\S+\n$/);
  const keyId = /key_[0-9a-f]+/.exec(created.stderr)![0];

  assert.equal((await postCheck(b.url, secret)).status, 200, 'the key works on the other instance');
  for (let i = 2; i <= 50; i++) {
    const res = await postCheck(i % 2 ? a.url : b.url, secret);
    assert.equal(res.status, 200, `check ${i}`);
    assert.equal(res.headers.get('ratelimit-remaining'), String(50 - i));
  }
  for (const [name, server] of [
    ['a', a],
    ['b', b],
  ] as const) {
    const refused = await postCheck(server.url, secret);
    assert.equal(refused.status, 429, `instance ${name} refuses past 50 a minute`);
    assert.equal(refused.body.error_code, 'TOO_MANY_REQUESTS');
    assert.equal(refused.body.request_id, refused.requestId);
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.equal(refused.headers.get('ratelimit-limit'), '50');
  }
  assert.equal((await postCheck(a.url, env.COVERAGE_DEV_KEY)).status, 200, 'another key has its own budget');

  const revoked = await runCli(['keys', 'revoke', keyId], env);
  assert.equal(revoked.code, 0, revoked.stderr);
  // Until an instance hears of the revoke, the key is still over its budget: those 429s are checks too.
  let refusedWhileRevoking = 0;
  for (const server of [a, b]) {
    await eventually(`${server.url} refuses the revoked key`, async () => {
      const { status } = await postCheck(server.url, secret);
      assert.ok(status === 401 || status === 429, `a revoked key answers 401, or 429 until the revoke arrives (got ${status})`);
      if (status === 429) refusedWhileRevoking++;
      return status === 401;
    });
  }

  const db = await store.open();
  await eventually('both instances audited every check', async () => {
    const rows = await usageCounts(db, { keyId });
    const count = (outcome: string) => rows.filter((r) => r.outcome === outcome).reduce((n, r) => n + r.count, 0);
    return count('OK') === 50 && count('TOO_MANY_REQUESTS') === 2 + refusedWhileRevoking;
  });
});

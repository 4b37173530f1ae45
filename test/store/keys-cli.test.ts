/** `coverage keys` and `coverage usage`: what operators see, and that a new secret is the only thing on stdout. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InvalidArgumentError } from 'commander';
import { createKey, listKeys, parseRateLimit, revokeKey, rotateKey } from '../../src/cli/keys.ts';
import type { CliIo } from '../../src/cli/io.ts';
import { parseSince, reportUsage } from '../../src/cli/usage.ts';
import { AuditWriter } from '../../src/store/audit.ts';
import { KeyStore } from '../../src/store/keys.ts';
import { runCli } from '../support/processes.ts';
import { sqliteStore } from '../support/stores.ts';

function capture(): CliIo & { out: string; err: string } {
  const io = { out: '', err: '', stdout: (s: string) => void (io.out += s), stderr: (s: string) => void (io.err += s) };
  return io;
}

async function keyStore(t: { after(fn: () => Promise<void>): void }) {
  const store = await sqliteStore();
  t.after(() => store.cleanup());
  const db = await store.open();
  return { db, keys: new KeyStore(db), store };
}

test('keys create, as a process: stdout is the new key and nothing else', async (t) => {
  const { keys, store } = await keyStore(t);
  const run = await runCli(['keys', 'create', '--name', 'clinic app', '--env', 'production', '--rate-limit', '120/min'], store.env);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^cov_live_[A-Za-z0-9_-]+\n$/);
  const key = await keys.verify(run.stdout.trim());
  assert.deepEqual([key?.name, key?.env, key?.rate_limit_per_minute], ['clinic app', 'production', 120]);
  assert.ok(run.stderr.includes(key!.id), 'the id is told on stderr');
});

test('keys list shows every key as a table or JSON, never a secret or a hash', async (t) => {
  const { db, keys } = await keyStore(t);
  const io = capture();
  await createKey(keys, { name: 'acme', env: 'sandbox', rateLimit: 75 }, io);
  const secret = io.out.trim();
  const revoked = await keys.create({ name: 'old', env: 'production' });
  await keys.revoke(revoked.key.id);
  const hashes = (await db.kysely.selectFrom('api_keys').select('hash').execute()).map((r) => r.hash);

  const table = capture();
  assert.equal(await listKeys(keys, {}, table), 0);
  const [header, ...rows] = table.out.trimEnd().split('\n');
  assert.match(header!, /^ID +NAME +ENV +PREFIX +LIMIT +CREATED +LAST USED +STATUS$/);
  assert.equal(rows.length, 2);
  assert.match(rows[0]!, /acme +sandbox +cov_test_\S+… +75\/min .* active$/);
  assert.match(rows[1]!, /old +production .* default .* revoked$/);

  const json = capture();
  await listKeys(keys, { json: true }, json);
  const listed = JSON.parse(json.out) as { name: string; status: string }[];
  assert.deepEqual(
    listed.map((k) => [k.name, k.status]),
    [
      ['acme', 'active'],
      ['old', 'revoked'],
    ],
  );

  for (const out of [table.out, json.out]) {
    assert.ok(!out.includes(secret) && !out.includes(revoked.secret));
    for (const h of hashes) assert.ok(!out.includes(h));
  }
});

test('keys revoke and rotate: the new secret once on stdout, unknown ids refused', async (t) => {
  const { keys } = await keyStore(t);
  const { key, secret } = await keys.create({ name: 'acme', env: 'sandbox', rate_limit_per_minute: 20 });
  const rotated = capture();
  assert.equal(await rotateKey(keys, key.id, rotated), 0);
  const fresh = rotated.out.trim();
  assert.match(rotated.out, /^cov_test_\S+\n$/);
  assert.equal((await keys.verify(fresh))?.rate_limit_per_minute, 20);
  assert.equal(await keys.verify(secret), null);

  const again = capture();
  assert.equal(await rotateKey(keys, key.id, again), 1);
  assert.equal(again.out, '');
  const newId = (await keys.verify(fresh))!.id;
  const revoked = capture();
  assert.equal(await revokeKey(keys, newId, revoked), 0);
  assert.equal(await keys.verify(fresh), null);
  assert.equal(await revokeKey(keys, newId, capture()), 1);
  assert.equal(await revokeKey(keys, 'key_missing', capture()), 1);
});

test('usage reports checks by key, endpoint and outcome, since a date, for one key', async (t) => {
  const { db, keys } = await keyStore(t);
  const acme = (await keys.create({ name: 'acme', env: 'sandbox' })).key.id;
  const writer = new AuditWriter(db);
  const record = (at: string, status: number, error_code: string | null, endpoint = 'estimate') =>
    writer.record({ request_id: crypto.randomUUID(), at, key_id: acme, endpoint, payer_id: null, status, error_code, latency_ms: 3, member_hash: null });
  record('2025-03-01T10:00:00.000Z', 200, null);
  record('2025-03-02T10:00:00.000Z', 200, null);
  record('2025-03-02T11:00:00.000Z', 429, 'TOO_MANY_REQUESTS');
  record('2025-02-01T10:00:00.000Z', 200, null, 'scan');
  await writer.close();

  const table = capture();
  await reportUsage(db, {}, table);
  const lines = table.out.trimEnd().split('\n');
  assert.match(lines[0]!, /^KEY +NAME +ENDPOINT +STATUS +OUTCOME +CHECKS$/);
  assert.match(lines[1]!, new RegExp(`^${acme} +acme +estimate +200 +OK +2$`));
  assert.match(lines[2]!, new RegExp(`^${acme} +acme +estimate +429 +TOO_MANY_REQUESTS +1$`));
  assert.match(lines[3]!, new RegExp(`^${acme} +acme +scan +200 +OK +1$`));
  assert.match(lines[4]!, /^total +4$/);

  const since = capture();
  await reportUsage(db, { since: parseSince('2025-03-02'), key: acme, json: true }, since);
  assert.deepEqual(
    (JSON.parse(since.out) as { endpoint: string; outcome: string; count: number }[]).map((r) => [r.endpoint, r.outcome, r.count]),
    [
      ['estimate', 'OK', 1],
      ['estimate', 'TOO_MANY_REQUESTS', 1],
    ],
  );
  const none = capture();
  await reportUsage(db, { key: 'key_other' }, none);
  assert.equal(none.out, 'No checks recorded.\n');
});

test('option parsing: rate limits per minute and --since dates', () => {
  assert.equal(parseRateLimit('50/min'), 50);
  assert.equal(parseRateLimit('200/minute'), 200);
  assert.equal(parseRateLimit('10'), 10);
  for (const bad of ['0/min', '50/hour', 'many', '-5', '1.5']) assert.throws(() => parseRateLimit(bad), InvalidArgumentError, bad);
  assert.equal(parseSince('2025-03-02'), '2025-03-02T00:00:00.000Z');
  assert.equal(parseSince('2025-03-02T10:30:00+02:00'), '2025-03-02T08:30:00.000Z');
  for (const bad of ['2025-02-31', 'yesterday', '03/02/2025', '2025-13-01']) assert.throws(() => parseSince(bad), InvalidArgumentError, bad);
});

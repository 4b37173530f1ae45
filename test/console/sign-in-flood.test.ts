/**
 * Issue 39, item 3: twenty sign-ins for made-up usernames took every thread of libuv's pool with
 * argon2 for seconds, and ten sign-ins of one person sent at once locked their account. Now password
 * hashes wait in a bounded queue (past it 429 with Retry-After), a username has its own limit per
 * minute beside the address's, and sign-ins of one username are checked one after another.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { checkerForServer, checkingFetch } from '../helpers/openapi-check.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { consoleConfig } from '../../src/server/console-config.ts';
import { parseEnv } from '../../src/server/env.ts';
import { PasswordQueue, PasswordQueueFull } from '../../src/store/password-queue.ts';
import { base32Decode, hotp } from '../../src/store/totp.ts';
import { UserStore } from '../../src/store/users.ts';

const PASSWORD = 'front desk password 1';
const CONSOLE = { 'x-coverage-console': '1' };

/** A promise and the function that settles it. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

async function started(env: Record<string, string>) {
  const server = await startTestServer({ env: { COVERAGE_CONSOLE_SIGN_INS_PER_MINUTE: '100000', ...env } });
  const call = checkingFetch(await checkerForServer(server.url), server.url);
  const signIn = async (username: string, password = PASSWORD, totp?: string) => {
    const res = await call(`${server.url}/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...CONSOLE },
      body: JSON.stringify({ username, password, ...(totp ? { totp } : {}) }),
    });
    return { status: res.status, body: await res.json(), retryAfter: res.headers.get('retry-after') };
  };
  return { server, call, signIn, users: new UserStore(server.runtime.db) };
}

const failuresOf = async (server: TestServer, username: string) =>
  server.runtime.db.kysely.selectFrom('users').select(['failed_attempts', 'locked_until']).where('username', '=', username).executeTakeFirstOrThrow();

// Within the default limits: ten a minute per username.
describe('sign-ins of one person sent at once', () => {
  let s: Awaited<ReturnType<typeof started>>;
  before(async () => (s = await started({})));
  after(() => s.server.close());

  test('ten with the right password all get in, and the account is not locked', async () => {
    await s.users.create({ username: 'erin', env: 'sandbox', password: PASSWORD });
    const answers = await Promise.all(Array.from({ length: 10 }, () => s.signIn('erin')));
    assert.deepEqual(
      answers.map((a) => a.status),
      Array(10).fill(200),
    );
    assert.deepEqual({ ...(await failuresOf(s.server, 'erin')) }, { failed_attempts: 0, locked_until: null });
  });

  test('ten with the right password and code: one gets in (a code is used once), none counts as a failure, nothing is locked', async () => {
    const { totpUri } = await s.users.create({ username: 'frank', env: 'sandbox', password: PASSWORD, totp: true });
    const secret = base32Decode(new URL(totpUri!).searchParams.get('secret')!);
    const code = hotp(secret, Math.floor(Date.now() / 30_000));
    const answers = await Promise.all(Array.from({ length: 10 }, () => s.signIn('frank', PASSWORD, code)));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, ...Array(9).fill(401)]);
    assert.deepEqual({ ...(await failuresOf(s.server, 'frank')) }, { failed_attempts: 0, locked_until: null });
  });
});

describe('the password hashing queue', () => {
  let s: Awaited<ReturnType<typeof started>>;
  before(async () => (s = await started({ COVERAGE_CONSOLE_HASHES_AT_ONCE: '1', COVERAGE_CONSOLE_HASH_QUEUE: '0' })));
  after(() => s.server.close());

  test('full: a sign-in is answered 429 with Retry-After and counts for nothing; static files and /healthz answer meanwhile', async () => {
    await s.users.create({ username: 'gina', env: 'sandbox', password: PASSWORD });
    const hashing = s.server.runtime.app.consoleAccess!.users.hashing;
    const hold = deferred();
    const held = hashing.run(() => hold.promise);
    try {
      for (const username of ['gina', 'nobody-at-all']) {
        const busy = await s.signIn(username, 'not the password');
        assert.equal(busy.status, 429);
        assert.equal(busy.body.error_code, 'TOO_MANY_REQUESTS');
        assert.ok(Number(busy.retryAfter) >= 1, `retry-after ${busy.retryAfter}`);
      }
      assert.deepEqual({ ...(await failuresOf(s.server, 'gina')) }, { failed_attempts: 0, locked_until: null });
      assert.equal((await fetch(`${s.server.url}/healthz`)).status, 200);
      const page = await fetch(`${s.server.url}/console/`);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<html/i);
    } finally {
      hold.resolve();
      await held;
    }
    assert.equal((await s.signIn('gina')).status, 200);
  });
});

describe('the limit per username', () => {
  let s: Awaited<ReturnType<typeof started>>;
  before(async () => (s = await started({ COVERAGE_CONSOLE_SIGN_INS_PER_USER_PER_MINUTE: '3' })));
  after(() => s.server.close());

  test('past it a username is answered 429 with Retry-After, known or not, while another username is not', async () => {
    await s.users.create({ username: 'hana', env: 'sandbox', password: PASSWORD });
    for (const username of ['hana', 'no-such-person']) {
      for (let i = 0; i < 3; i++) assert.equal((await s.signIn(username, 'not the password')).status, 401);
      const limited = await s.signIn(username.toUpperCase());
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.retryAfter) >= 1, `retry-after ${limited.retryAfter}`);
    }
    assert.equal((await s.signIn('ivan')).status, 401);
  });
});

test('the queue runs at most atOnce, lets at most `waiting` wait, in order, and refuses the rest without running them', async () => {
  const queue = new PasswordQueue({ atOnce: 2, waiting: 1 });
  const holds = [deferred(), deferred(), deferred()];
  const started: number[] = [];
  const runs = holds.map((h, i) =>
    queue.run(async () => {
      started.push(i);
      await h.promise;
      return i;
    }),
  );
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(started, [0, 1]);
  assert.deepEqual(queue.load, { running: 2, waiting: 1 });
  let ran = false;
  await assert.rejects(
    queue.run(async () => (ran = true)),
    (err: unknown) => err instanceof PasswordQueueFull && err.retryAfterSeconds >= 1,
  );
  assert.equal(ran, false);
  holds[0]!.resolve();
  assert.equal(await runs[0], 0);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(started, [0, 1, 2]);
  holds[1]!.resolve();
  holds[2]!.resolve();
  assert.deepEqual(await Promise.all(runs), [0, 1, 2]);
  assert.deepEqual(queue.load, { running: 0, waiting: 0 });
});

test('hashes at once must leave threads of the pool free', () => {
  assert.equal(consoleConfig(parseEnv({})).hashesAtOnce, 2);
  assert.throws(() => consoleConfig(parseEnv({ COVERAGE_CONSOLE_HASHES_AT_ONCE: '4' })), /must be below UV_THREADPOOL_SIZE \(4\)/);
  assert.equal(consoleConfig(parseEnv({ COVERAGE_CONSOLE_HASHES_AT_ONCE: '4', UV_THREADPOOL_SIZE: '8' })).hashesAtOnce, 4);
});

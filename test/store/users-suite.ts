/** Users and console sessions, written once and run on every dialect (users.test.ts). */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { ConsoleSessionStore } from '../../src/store/console-sessions.ts';
import { BatchStore } from '../../src/store/batches.ts';
import type { Db } from '../../src/store/db.ts';
import { DataKey } from '../../src/store/data-key.ts';
import { base32Decode, hotp } from '../../src/store/totp.ts';
import { UserInputError, UserStore } from '../../src/store/users.ts';
import type { TestStore } from '../support/stores.ts';
import { clockAt } from '../helpers/clock.ts';

const PASSWORD = 'correct horse battery';

/** A clock the test moves by hand. */
function clock(start = '2026-06-15T09:00:00.000Z') {
  let t = Date.parse(start);
  return { now: () => new Date(t), advance: (ms: number) => void (t += ms), seconds: () => Math.floor(t / 1000) };
}

const reasonOf = async (result: Promise<{ ok: boolean; reason?: string }>) => {
  const r = await result;
  return r.ok ? 'ok' : r.reason;
};
const secretOf = (uri: string) => base32Decode(new URL(uri).searchParams.get('secret')!);

export function usersSuite(newStore: () => Promise<TestStore>): void {
  const stores: TestStore[] = [];
  after(async () => {
    await Promise.all(stores.map((s) => s.cleanup()));
  });
  const open = async (): Promise<Db> => {
    const store = await newStore();
    stores.push(store);
    return store.open();
  };

  test('users: argon2id hashes, never the password; usernames unique and case-insensitive', async () => {
    const db = await open();
    const users = new UserStore(db);
    const { user, totpUri } = await users.create({ username: 'Alice', env: 'sandbox', password: PASSWORD });
    assert.equal(totpUri, null);
    assert.equal(user.username, 'alice');
    const row = await db.kysely.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    assert.match(row.password_hash, /^\$argon2id\$v=19\$/);
    assert.ok(!JSON.stringify(row).includes(PASSWORD));
    assert.ok(!JSON.stringify(await users.list()).includes(row.password_hash));
    await assert.rejects(users.create({ username: 'ALICE', env: 'sandbox', password: PASSWORD }), UserInputError);
    await assert.rejects(users.create({ username: 'bob', env: 'sandbox', password: 'short' }), /at least 12/);
    await assert.rejects(users.create({ username: 'no spaces', env: 'sandbox', password: PASSWORD }), UserInputError);
    assert.equal((await users.signIn({ username: ' ALICE ', password: PASSWORD, env: 'sandbox' })).ok, true);
  });

  test('sign-in: every failure is the same failure, and a user of the other env cannot sign in', async () => {
    const db = await open();
    const users = new UserStore(db);
    await users.create({ username: 'alice', env: 'sandbox', password: PASSWORD });
    await users.create({ username: 'prod', env: 'production', password: PASSWORD });
    await users.create({ username: 'gone', env: 'sandbox', password: PASSWORD });
    await users.disable('gone');
    const reason = async (username: string, password: string) => {
      const r = await users.signIn({ username, password, env: 'sandbox' });
      return r.ok ? 'ok' : r.reason;
    };
    assert.equal(await reason('alice', PASSWORD), 'ok');
    assert.equal(await reason('alice', `${PASSWORD}!`), 'bad_password');
    assert.equal(await reason('nobody', PASSWORD), 'no_such_user');
    assert.equal(await reason('gone', PASSWORD), 'disabled');
    assert.equal(await reason('prod', PASSWORD), 'wrong_env');
    assert.equal(await reason('alice', 'x'.repeat(10_000)), 'bad_password');
  });

  test('lockout: five failures lock the account for 15 minutes, even to the right password; then it opens', async () => {
    const db = await open();
    const c = clock();
    const users = new UserStore(db, { clock: clockAt(c.now) });
    await users.create({ username: 'alice', env: 'sandbox', password: PASSWORD });
    for (let i = 0; i < 4; i++) assert.equal((await users.signIn({ username: 'alice', password: 'wrong password 1', env: 'sandbox' })).ok, false);
    // A success clears the count.
    assert.equal((await users.signIn({ username: 'alice', password: PASSWORD, env: 'sandbox' })).ok, true);
    for (let i = 0; i < 5; i++) await users.signIn({ username: 'alice', password: 'wrong password 1', env: 'sandbox' });
    assert.equal(await reasonOf(users.signIn({ username: 'alice', password: PASSWORD, env: 'sandbox' })), 'locked');
    assert.ok((await users.get('alice'))!.locked_until);
    c.advance(14 * 60_000);
    assert.equal(await reasonOf(users.signIn({ username: 'alice', password: PASSWORD, env: 'sandbox' })), 'locked');
    c.advance(60_000);
    assert.equal((await users.signIn({ username: 'alice', password: PASSWORD, env: 'sandbox' })).ok, true);
    // A reset unlocks at once.
    for (let i = 0; i < 5; i++) await users.signIn({ username: 'alice', password: 'wrong password 1', env: 'sandbox' });
    await users.reset('alice', { password: 'a new long password' });
    assert.equal((await users.signIn({ username: 'alice', password: 'a new long password', env: 'sandbox' })).ok, true);
  });

  test('lockout holds against attempts sent at once: twelve wrong and the right one, from two servers on one store', async () => {
    const store = await newStore();
    stores.push(store);
    const [a, b] = [await store.open(), await store.open()];
    const c = clock();
    const servers = [new UserStore(a, { clock: clockAt(c.now) }), new UserStore(b, { clock: clockAt(c.now) })];
    await servers[0]!.create({ username: 'alice', env: 'sandbox', password: PASSWORD });
    const attempts = [...Array.from({ length: 12 }, (_, i) => `wrong password ${i}`), PASSWORD];
    const reasons = await Promise.all(attempts.map((password, i) => reasonOf(servers[i % 2]!.signIn({ username: 'alice', password, env: 'sandbox' }))));
    assert.ok(!reasons.includes('ok'), `the right password must not get through a lock its own batch set: ${reasons.join(' ')}`);
    assert.ok(reasons.filter((r) => r === 'locked').length >= attempts.length - servers[0]!.maxFailures, reasons.join(' '));
    assert.ok(reasons.filter((r) => r === 'bad_password').length <= servers[0]!.maxFailures, 'no more than the limit were checked');
    assert.equal(await reasonOf(servers[1]!.signIn({ username: 'alice', password: PASSWORD, env: 'sandbox' })), 'locked', 'the lock holds afterwards');
    c.advance(servers[0]!.lockoutMs);
    assert.equal((await servers[1]!.signIn({ username: 'alice', password: PASSWORD, env: 'sandbox' })).ok, true, 'and runs out');
  });

  // An attempt counts as failed until it succeeds: sent at once with four wrong ones, the right one is the fifth and locks.
  test('lockout: three failures and the right password, sent at once, still let the person in', async () => {
    const db = await open();
    const users = new UserStore(db, { clock: clockAt(clock().now) });
    await users.create({ username: 'alice', env: 'sandbox', password: PASSWORD });
    const attempts = [...Array.from({ length: 3 }, (_, i) => `wrong password ${i}`), PASSWORD];
    const reasons = await Promise.all(attempts.map((password) => reasonOf(users.signIn({ username: 'alice', password, env: 'sandbox' }))));
    assert.deepEqual([...reasons].sort(), ['bad_password', 'bad_password', 'bad_password', 'ok']);
    assert.equal((await users.get('alice'))!.locked_until, null);
  });

  test('TOTP: the code is required, accepted once, sealed under the data key', async () => {
    const db = await open();
    const c = clock();
    const dataKey = DataKey.fromHex('ab'.repeat(32));
    const users = new UserStore(db, { clock: clockAt(c.now), dataKey });
    const { totpUri } = await users.create({ username: 'alice', env: 'production', password: PASSWORD, totp: true });
    assert.ok(totpUri);
    const secret = secretOf(totpUri);
    const row = await db.kysely.selectFrom('users').select('totp_secret').executeTakeFirstOrThrow();
    assert.match(row.totp_secret!, /^v1\./);
    assert.ok(!row.totp_secret!.includes(new URL(totpUri).searchParams.get('secret')!));
    const code = () => hotp(secret, Math.floor(c.seconds() / 30));
    const signIn = (totp?: string) => users.signIn({ username: 'alice', password: PASSWORD, totp, env: 'production' });
    const bad = { ok: false, reason: 'bad_totp', user_id: (await users.get('alice'))!.id };
    assert.deepEqual(await signIn(), bad);
    assert.deepEqual(await signIn('000000' === code() ? '111111' : '000000'), bad);
    assert.equal((await signIn(code())).ok, true);
    assert.deepEqual(await signIn(code()), bad, 'a code is accepted once');
    c.advance(30_000);
    assert.equal((await signIn(code())).ok, true);
    // Without the data key (or with another) the sealed secret cannot be read: the sign-in fails rather than skipping the code.
    for (const other of [null, DataKey.fromHex('cd'.repeat(32))]) {
      const without = await new UserStore(db, { clock: clockAt(c.now), dataKey: other }).signIn({
        username: 'alice',
        password: PASSWORD,
        totp: code(),
        env: 'production',
      });
      assert.equal(without.ok ? 'ok' : without.reason, 'totp_unreadable');
    }
    // A sealed secret is bound to its user: copied onto another user's row it does not open.
    await users.create({ username: 'mallory', env: 'production', password: PASSWORD });
    const sealed = (await db.kysely.selectFrom('users').select('totp_secret').where('username', '=', 'alice').executeTakeFirstOrThrow()).totp_secret;
    await db.kysely.updateTable('users').set({ totp_secret: sealed }).where('username', '=', 'mallory').execute();
    c.advance(30_000);
    assert.equal(await reasonOf(users.signIn({ username: 'mallory', password: PASSWORD, totp: code(), env: 'production' })), 'totp_unreadable');
    // reset --no-totp removes it; reset --totp issues a new one.
    await users.reset('alice', { password: PASSWORD, totp: false });
    assert.equal((await users.signIn({ username: 'alice', password: PASSWORD, env: 'production' })).ok, true);
    const again = await users.reset('alice', { password: PASSWORD, totp: true });
    assert.notDeepEqual(secretOf(again!.totpUri!), secret);
    const plain = new UserStore(db, { clock: clockAt(c.now) });
    const { totpUri: plainUri } = await plain.create({ username: 'bob', env: 'production', password: PASSWORD, totp: true });
    const stored = await db.kysely.selectFrom('users').select('totp_secret').where('username', '=', 'bob').executeTakeFirstOrThrow();
    assert.equal(stored.totp_secret, `plain:${new URL(plainUri!).searchParams.get('secret')}`);
  });

  test('sessions: only a hash is stored; idle logoff, absolute end, sign-out', async () => {
    const db = await open();
    const c = clock();
    const users = new UserStore(db, { clock: clockAt(c.now) });
    const sessions = new ConsoleSessionStore(db, { clock: clockAt(c.now), idleMs: 15 * 60_000, lifetimeMs: 12 * 3_600_000 });
    const { user } = await users.create({ username: 'alice', env: 'sandbox', password: PASSWORD });
    const { token } = await sessions.create(user.id);
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    const rows = await db.kysely.selectFrom('console_sessions').selectAll().execute();
    assert.equal(rows.length, 1);
    assert.ok(!JSON.stringify(rows).includes(token));
    assert.deepEqual((await sessions.resolve(token))?.user, { id: user.id, username: 'alice', env: 'sandbox' });
    assert.equal(await sessions.resolve(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`), null);

    // Activity keeps it alive past 15 minutes in total...
    for (let i = 0; i < 3; i++) {
      c.advance(14 * 60_000);
      assert.ok(await sessions.resolve(token), `alive after activity ${i}`);
    }
    // ...15 idle minutes end it, for good.
    c.advance(15 * 60_000);
    assert.equal(await sessions.resolve(token), null);
    c.advance(-15 * 60_000);
    assert.equal(await sessions.resolve(token), null, 'deleted, not just refused');

    const second = await sessions.create(user.id);
    let alive = 0;
    while (alive < 100 && (await sessions.resolve(second.token))) {
      alive++;
      c.advance(14 * 60_000);
    }
    // 12 hours of a request every 14 minutes: 52 requests, then the absolute end.
    assert.equal(alive, Math.ceil((12 * 60) / 14));

    const third = await sessions.create(user.id);
    await sessions.destroy(third.token);
    assert.equal(await sessions.resolve(third.token), null);

    // Sessions nobody comes back to are swept once idle.
    const fresh = await sessions.create(user.id);
    await sessions.create(user.id);
    c.advance(10 * 60_000);
    assert.ok(await sessions.resolve(fresh.token));
    c.advance(6 * 60_000);
    assert.equal(await sessions.purge(), 1, 'the one idle for 16 minutes, not the one used 6 minutes ago');
    assert.ok(await sessions.resolve(fresh.token));
  });

  test('single sign-on users: no password matches; a vouched sign-in checks enabled, env and lock', async () => {
    const db = await open();
    const users = new UserStore(db);
    const { user } = await users.create({ username: 'Alice@Clinic.example', env: 'sandbox', sso: true });
    assert.deepEqual([user.username, user.sso, user.totp], ['alice@clinic.example', true, false]);
    await assert.rejects(users.create({ username: 'x@clinic.example', env: 'sandbox', sso: true, password: PASSWORD }), UserInputError);
    for (const password of ['!sso-only', '', PASSWORD])
      assert.equal(await reasonOf(users.signIn({ username: 'alice@clinic.example', password, env: 'sandbox' })), 'bad_password');
    assert.equal(await reasonOf(users.signInVouched('ALICE@clinic.example', 'sandbox')), 'ok');
    assert.ok((await users.get('alice@clinic.example'))!.last_sign_in_at);
    assert.equal(await reasonOf(users.signInVouched('alice@clinic.example', 'production')), 'wrong_env');
    assert.equal(await reasonOf(users.signInVouched('nobody@clinic.example', 'sandbox')), 'no_such_user');
    await users.disable('alice@clinic.example');
    assert.equal(await reasonOf(users.signInVouched('alice@clinic.example', 'sandbox')), 'disabled');
    await users.enable('alice@clinic.example');
    // A reset gives an SSO user a password: they may then use either.
    await users.reset('alice@clinic.example', { password: PASSWORD });
    assert.equal(await reasonOf(users.signIn({ username: 'alice@clinic.example', password: PASSWORD, env: 'sandbox' })), 'ok');
    assert.equal((await users.get('alice@clinic.example'))!.sso, false);
  });

  test("disabling a person cancels their batch rows that have not started; another person's go on", async () => {
    const db = await open();
    const users = new UserStore(db);
    const batches = new BatchStore(db);
    const alice = (await users.create({ username: 'alice', env: 'sandbox', password: PASSWORD })).user;
    const bob = (await users.create({ username: 'bob', env: 'sandbox', password: PASSWORD })).user;
    const queue = (user: typeof alice) =>
      batches.create({
        keyId: user.id,
        ownerId: user.id,
        userId: user.id,
        env: 'sandbox',
        source: 'json',
        checks: [{ endpoint: 'scan', request: { member_first_name: 'A', member_last_name: 'B', member_dob: '1980-01-01', zip: '' } }],
        payerKeys: ['*scan'],
      });
    const [a, b] = [await queue(alice), await queue(bob)];
    assert.equal(await batches.cancelOrphaned(), 0, 'both people are enabled');
    await users.disable('alice');
    assert.equal(await batches.cancelOrphaned(), 1);
    const states = async (batchId: string) =>
      (await db.kysely.selectFrom('batch_rows').select('state').where('batch_id', '=', batchId).execute()).map((r) => r.state);
    assert.deepEqual(await states(a.id), ['cancelled']);
    assert.deepEqual(await states(b.id), ['pending']);
  });

  test('sessions die when the user is disabled or reset', async () => {
    const db = await open();
    const users = new UserStore(db);
    const sessions = new ConsoleSessionStore(db);
    const { user } = await users.create({ username: 'alice', env: 'sandbox', password: PASSWORD });
    const a = await sessions.create(user.id);
    assert.ok(await users.disable('alice'));
    assert.equal(await sessions.resolve(a.token), null);
    assert.equal(await users.disable('alice'), false);
    assert.ok(await users.enable('alice'));
    const b = await sessions.create(user.id);
    assert.ok(await sessions.resolve(b.token));
    await users.reset('alice', { password: 'another long password' });
    assert.equal(await sessions.resolve(b.token), null);
    // A session row that survived a reset (written by an instance that missed it) is still refused.
    const c = await sessions.create(user.id);
    await db.kysely.updateTable('console_sessions').set({ created_at: '2000-01-01T00:00:00.000Z' }).execute();
    assert.equal(await sessions.resolve(c.token), null);
    assert.equal(await users.countActive('sandbox'), 1);
    assert.equal(await users.countActive('production'), 0);
  });
}

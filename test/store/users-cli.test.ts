/** `coverage users` as processes: what an administrator types and sees, and what the store then holds. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../support/processes.ts';
import { sqliteStore } from '../support/stores.ts';
import { base32Decode, hotp } from '../../src/store/totp.ts';
import { UserStore } from '../../src/store/users.ts';

const PASSWORD = 'front desk password 1';

async function setup(t: { after(fn: () => Promise<void>): void }) {
  const store = await sqliteStore();
  t.after(() => store.cleanup());
  const db = await store.open();
  return { store, db, users: new UserStore(db) };
}

test('users add, list, disable, enable: a person who can sign in, listed without secrets', async (t) => {
  const { store, db, users } = await setup(t);
  const added = await runCli(['users', 'add', 'Alice', '--password-stdin'], store.env, `${PASSWORD}\n`);
  assert.equal(added.code, 0, added.stderr);
  assert.equal(added.stdout, '', 'nothing on stdout without --totp');
  assert.match(added.stderr, /Created alice \(usr_[0-9a-f]{16}, sandbox\)/);
  assert.equal((await users.signIn({ username: 'alice', password: PASSWORD, env: 'sandbox' })).ok, true);

  const prod = await runCli(['users', 'add', 'bob', '--env', 'production', '--password-stdin'], store.env, `${PASSWORD}\n`);
  assert.equal(prod.code, 0, prod.stderr);
  const duplicate = await runCli(['users', 'add', 'ALICE', '--password-stdin'], store.env, `${PASSWORD}\n`);
  assert.equal(duplicate.code, 1);
  assert.match(duplicate.stderr, /already exists/);
  const short = await runCli(['users', 'add', 'carl', '--password-stdin'], store.env, 'short\n');
  assert.equal(short.code, 1);
  assert.match(short.stderr, /at least 12 characters/);
  const noTerminal = await runCli(['users', 'add', 'carl'], store.env);
  assert.equal(noTerminal.code, 1);
  assert.match(noTerminal.stderr, /--password-stdin/);

  const disabled = await runCli(['users', 'disable', 'alice'], store.env);
  assert.equal(disabled.code, 0, disabled.stderr);
  assert.equal((await users.signIn({ username: 'alice', password: PASSWORD, env: 'sandbox' })).ok, false);
  assert.equal((await runCli(['users', 'disable', 'alice'], store.env)).code, 1);

  const table = await runCli(['users', 'list'], store.env);
  assert.equal(table.code, 0);
  const [header, ...rows] = table.stdout.trimEnd().split('\n');
  assert.match(header!, /^USERNAME +ID +ENV +SIGN-IN +CREATED +LAST SIGN-IN +STATUS$/);
  assert.match(rows[0]!, /^alice +usr_\S+ +sandbox +password .* disabled$/);
  assert.match(rows[1]!, /^bob +usr_\S+ +production +password .* - +active$/);
  const json = JSON.parse((await runCli(['users', 'list', '--json'], store.env)).stdout) as { username: string; status: string }[];
  assert.deepEqual(
    json.map((u) => [u.username, u.status]),
    [
      ['alice', 'disabled'],
      ['bob', 'active'],
    ],
  );
  const hashes = (await db.kysely.selectFrom('users').select('password_hash').execute()).map((r) => r.password_hash);
  for (const out of [table.stdout, JSON.stringify(json), added.stderr]) {
    assert.ok(!out.includes(PASSWORD));
    for (const h of hashes) assert.ok(!out.includes(h));
  }

  const sso = await runCli(['users', 'add', 'carl@clinic.example', '--sso'], store.env);
  assert.equal(sso.code, 0, sso.stderr);
  assert.match((await runCli(['users', 'list'], store.env)).stdout, /carl@clinic\.example +usr_\S+ +sandbox +sso /);
  assert.equal((await runCli(['users', 'add', 'dan@clinic.example', '--sso', '--totp'], store.env)).code, 1);

  assert.equal((await runCli(['users', 'enable', 'alice'], store.env)).code, 0);
  assert.equal((await users.signIn({ username: 'alice', password: PASSWORD, env: 'sandbox' })).ok, true);
});

test('users add --totp prints the otpauth URI once on stdout; reset --totp replaces it, --no-totp removes it', async (t) => {
  const { store, users } = await setup(t);
  const added = await runCli(['users', 'add', 'dana', '--totp', '--password-stdin'], store.env, `${PASSWORD}\n`);
  assert.equal(added.code, 0, added.stderr);
  assert.match(added.stdout, /^otpauth:\/\/totp\/Coverage%20console:dana\?secret=[A-Z2-7]{32}&\S+\n$/);
  assert.match(added.stderr, /COVERAGE_DATA_KEY is not set/);
  const secret = base32Decode(new URL(added.stdout.trim()).searchParams.get('secret')!);
  const code = () => hotp(secret, Math.floor(Date.now() / 30_000));
  assert.equal((await users.signIn({ username: 'dana', password: PASSWORD, env: 'sandbox' })).ok, false);
  assert.equal((await users.signIn({ username: 'dana', password: PASSWORD, totp: code(), env: 'sandbox' })).ok, true);
  assert.doesNotMatch((await runCli(['users', 'list'], store.env)).stdout, new RegExp(new URL(added.stdout.trim()).searchParams.get('secret')!));

  const sealed = await runCli(['users', 'add', 'eve', '--totp', '--password-stdin'], { ...store.env, COVERAGE_DATA_KEY: 'cd'.repeat(32) }, `${PASSWORD}\n`);
  assert.equal(sealed.code, 0, sealed.stderr);
  assert.doesNotMatch(sealed.stderr, /not set/);

  const reset = await runCli(['users', 'reset', 'dana', '--totp', '--password-stdin'], store.env, 'a second password here\n');
  assert.equal(reset.code, 0, reset.stderr);
  assert.match(reset.stdout, /^otpauth:\/\//);
  assert.notEqual(reset.stdout, added.stdout);
  const removed = await runCli(['users', 'reset', 'dana', '--no-totp', '--password-stdin'], store.env, 'a third password here\n');
  assert.equal(removed.code, 0, removed.stderr);
  assert.equal(removed.stdout, '');
  assert.equal((await users.signIn({ username: 'dana', password: 'a third password here', env: 'sandbox' })).ok, true);
  const kept = await runCli(['users', 'reset', 'dana', '--password-stdin'], store.env, 'a fourth password here\n');
  assert.equal(kept.code, 0);
  assert.equal((await users.get('dana'))!.totp, false);
  assert.equal((await runCli(['users', 'reset', 'nobody', '--password-stdin'], store.env, `${PASSWORD}\n`)).code, 1);
});

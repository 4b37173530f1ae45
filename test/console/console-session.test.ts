/**
 * Console sign-in over HTTP: the cookie, the person behind every check, and the ways a session
 * ends. Users are made with the server's own store; time is moved by editing the stored session
 * (the idle and lifetime arithmetic has its own clock-driven tests in test/store/users-suite.ts).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Writable } from 'node:stream';
import { eventually } from '../helpers/eventually.ts';
import { checkerForServer, checkingFetch } from '../helpers/openapi-check.ts';
import { requestFor } from '../helpers/requests.ts';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';
import { hotp, base32Decode } from '../../src/store/totp.ts';
import { UserStore } from '../../src/store/users.ts';
import { usageCounts } from '../../src/store/usage.ts';
import { sandboxMemberTable } from '../../src/sandbox/member-table.ts';

const PASSWORD = 'front desk password 1';
const CONSOLE = { 'x-coverage-console': '1' };

let server: TestServer;
let users: UserStore;
let call: typeof fetch;

before(async () => {
  // The flood limit has its own server below.
  server = await startTestServer({ env: { COVERAGE_CONSOLE_SIGN_INS_PER_MINUTE: '100000' } });
  users = new UserStore(server.runtime.db);
  call = checkingFetch(await checkerForServer(server.url), server.url);
});
after(() => server?.close());

async function signIn(username: string, password = PASSWORD, extra: { totp?: string; headers?: Record<string, string> } = {}) {
  const res = await call(`${server.url}/console/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...CONSOLE, ...extra.headers },
    body: JSON.stringify({ username, password, ...(extra.totp ? { totp: extra.totp } : {}) }),
  });
  const setCookie = res.headers.get('set-cookie');
  const cookie = setCookie ? setCookie.split(';')[0]! : null;
  return { status: res.status, body: await res.json(), setCookie, cookie, requestId: res.headers.get('x-request-id')! };
}

const MEMBER = sandboxMemberTable().find((m) => m.endpoints[0] === 'estimate' && m.expected_status === 200 && m.first_name !== null)!;
const estimateBody = () => requestFor('estimate', MEMBER);

async function check(cookie: string | null, headers: Record<string, string> = CONSOLE) {
  const res = await call(`${server.url}/v1/estimate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...headers },
    body: JSON.stringify(estimateBody()),
  });
  return { status: res.status, body: await res.json(), requestId: res.headers.get('x-request-id')! };
}

async function whoami(cookie: string | null) {
  const res = await call(`${server.url}/console/session`, { headers: cookie ? { cookie } : {} });
  return { status: res.status, body: await res.json() };
}

test('no users yet: the console is told to create one, and (sandbox) that an API key may stand in', async () => {
  assert.deepEqual((await whoami(null)).body.users_configured, false);
  assert.deepEqual((await whoami(null)).body.api_key_allowed, true);
  await users.create({ username: 'setup-check', env: 'sandbox', password: PASSWORD });
  const after = await whoami(null);
  assert.equal(after.status, 401);
  assert.deepEqual([after.body.users_configured, after.body.api_key_allowed], [true, false]);
});

test('sign in: an HttpOnly, SameSite=Strict session cookie; the person runs checks with it, audited by name', async () => {
  await users.create({ username: 'alice', env: 'sandbox', password: PASSWORD });
  const login = await signIn('Alice');
  assert.equal(login.status, 200);
  assert.equal(login.body.username, 'alice');
  assert.equal(login.body.env, 'sandbox');
  assert.equal(login.body.idle_timeout_seconds, 15 * 60);
  const attributes = login.setCookie!.split(';').map((a) => a.trim());
  assert.match(attributes[0]!, /^coverage_session=[A-Za-z0-9_-]{43}$/);
  assert.deepEqual(attributes.slice(1).sort(), ['HttpOnly', 'Path=/', 'SameSite=Strict'], 'no Secure over plain HTTP; no Max-Age: gone with the browser');
  const token = login.cookie!.split('=')[1]!;
  const stored = await server.runtime.db.kysely.selectFrom('console_sessions').selectAll().execute();
  assert.ok(!JSON.stringify(stored).includes(token), 'only a hash of the token is stored');

  assert.equal((await whoami(login.cookie)).body.username, 'alice');
  const result = await check(login.cookie);
  assert.equal(result.status, 200, JSON.stringify(result.body));
  await server.runtime.audit.flush();
  const record = await server.runtime.db.kysely.selectFrom('audit_events').selectAll().where('request_id', '=', result.requestId).executeTakeFirstOrThrow();
  const alice = await users.get('alice');
  assert.equal(record.user_id, alice!.id);
  assert.equal(record.key_id, alice!.id, 'the person is the principal: limits and batches are theirs');
  assert.equal(record.endpoint, 'estimate');
  const usage = await usageCounts(server.runtime.db, { keyId: alice!.id });
  assert.deepEqual(
    usage.map((u) => [u.key_name, u.endpoint, u.count]),
    [['console user alice', 'estimate', 1]],
  );

  // A machine key's check names no person.
  const machine = await check(null, { apikey: TEST_KEY });
  assert.equal(machine.status, 200);
  await server.runtime.audit.flush();
  const keyRecord = await server.runtime.db.kysely.selectFrom('audit_events').selectAll().where('request_id', '=', machine.requestId).executeTakeFirstOrThrow();
  assert.equal(keyRecord.user_id, null);
});

test('CSRF: cookie requests without x-coverage-console are refused, sign-in included', async () => {
  await users.create({ username: 'csrf', env: 'sandbox', password: PASSWORD });
  const { cookie } = await signIn('csrf');
  const bare = await check(cookie, {});
  assert.equal(bare.status, 401);
  assert.match(bare.body.message, /x-coverage-console/);
  const wrong = await check(cookie, { 'x-coverage-console': 'yes' });
  assert.equal(wrong.status, 401);
  const noHeader = await call(`${server.url}/console/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'csrf', password: PASSWORD }),
  });
  assert.equal(noHeader.status, 401);
  assert.equal(noHeader.headers.get('set-cookie'), null);
  const signOut = await call(`${server.url}/console/session`, { method: 'DELETE', headers: { cookie: cookie! } });
  assert.equal(signOut.status, 401, 'a cross-site sign-out is refused too');
  assert.equal((await check(cookie)).status, 200);
});

test('Secure cookies behind a TLS proxy only when COVERAGE_TRUST_PROXY says to believe it', async (t) => {
  await users.create({ username: 'proxied', env: 'sandbox', password: PASSWORD });
  const forwarded = { headers: { 'x-forwarded-proto': 'https' } };
  assert.ok(!(await signIn('proxied', PASSWORD, forwarded)).setCookie!.includes('Secure'), 'an untrusted header is ignored');
  const trusting = await startTestServer({ env: { COVERAGE_TRUST_PROXY: '1' } });
  t.after(() => trusting.close());
  await new UserStore(trusting.runtime.db).create({ username: 'proxied', env: 'sandbox', password: PASSWORD });
  const res = await fetch(`${trusting.url}/console/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...CONSOLE, 'x-forwarded-proto': 'https' },
    body: JSON.stringify({ username: 'proxied', password: PASSWORD }),
  });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('set-cookie')!, /; Secure(;|$)/);
});

test('no user enumeration: unknown, disabled, locked, other-env and wrong-password answers are the same', async () => {
  await users.create({ username: 'bob', env: 'sandbox', password: PASSWORD });
  await users.create({ username: 'carol', env: 'sandbox', password: PASSWORD });
  await users.disable('carol');
  await users.create({ username: 'prodonly', env: 'production', password: PASSWORD });
  await users.create({ username: 'locked', env: 'sandbox', password: PASSWORD });
  for (let i = 0; i < 5; i++) await signIn('locked', 'not the password');
  const answers = await Promise.all([
    signIn('bob', 'not the password'),
    signIn('nobody-here', PASSWORD),
    signIn('carol', PASSWORD),
    signIn('prodonly', PASSWORD),
    signIn('locked', PASSWORD),
  ]);
  for (const a of answers) {
    assert.equal(a.status, 401);
    assert.equal(a.setCookie, null);
    const { request_id: _id, ...rest } = a.body;
    const { request_id: _first, ...first } = answers[0].body;
    assert.deepEqual(rest, first);
  }
  assert.match(answers[0].body.message, /locked for 15 minutes/);
});

test('lockout: after five failures the right password is refused until an admin reset', async () => {
  await users.create({ username: 'dave', env: 'sandbox', password: PASSWORD });
  for (let i = 0; i < 5; i++) assert.equal((await signIn('dave', `wrong ${i} password`)).status, 401);
  assert.equal((await signIn('dave')).status, 401);
  await users.reset('dave', { password: 'a brand new password' });
  assert.equal((await signIn('dave', 'a brand new password')).status, 200);
});

test('sign-out ends the session on the server: the old cookie no longer works', async () => {
  await users.create({ username: 'erin', env: 'sandbox', password: PASSWORD });
  const { cookie } = await signIn('erin');
  const res = await call(`${server.url}/console/session`, { method: 'DELETE', headers: { cookie: cookie!, ...CONSOLE } });
  assert.equal(res.status, 204);
  assert.match(res.headers.get('set-cookie')!, /^coverage_session=; .*Max-Age=0/);
  assert.equal((await check(cookie)).status, 401);
  assert.equal((await whoami(cookie)).status, 401);
});

test('a disabled user, or one whose password is reset, is signed out at the next request', async () => {
  await users.create({ username: 'frank', env: 'sandbox', password: PASSWORD });
  const first = await signIn('frank');
  assert.equal((await check(first.cookie)).status, 200);
  await users.disable('frank');
  const refused = await check(first.cookie);
  assert.equal(refused.status, 401);
  assert.match(refused.body.message, /session has ended/);
  await users.enable('frank');
  const second = await signIn('frank');
  await users.reset('frank', { password: 'another password 2' });
  assert.equal((await check(second.cookie)).status, 401);
});

test('idle logoff: a session whose last request was 15 minutes ago is ended', async () => {
  await users.create({ username: 'gina', env: 'sandbox', password: PASSWORD });
  const { cookie } = await signIn('gina');
  const user = await users.get('gina');
  const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
  await server.runtime.db.kysely
    .updateTable('console_sessions')
    .set({ last_seen_at: ago(14) })
    .where('user_id', '=', user!.id)
    .execute();
  assert.equal((await check(cookie)).status, 200, '14 minutes idle is still signed in');
  await server.runtime.db.kysely
    .updateTable('console_sessions')
    .set({ last_seen_at: ago(15) })
    .where('user_id', '=', user!.id)
    .execute();
  assert.equal((await check(cookie)).status, 401);
  assert.equal((await server.runtime.db.kysely.selectFrom('console_sessions').where('user_id', '=', user!.id).selectAll().execute()).length, 0);
});

test('TOTP: a user enrolled signs in with the code of their app, and not without it', async () => {
  const { totpUri } = await users.create({ username: 'hana', env: 'sandbox', password: PASSWORD, totp: true });
  const secret = base32Decode(new URL(totpUri!).searchParams.get('secret')!);
  assert.equal((await signIn('hana')).status, 401);
  const code = hotp(secret, Math.floor(Date.now() / 30_000));
  const ok = await signIn('hana', PASSWORD, { totp: code });
  assert.equal(ok.status, 200);
  assert.equal((await signIn('hana', PASSWORD, { totp: code })).status, 401, 'the same code twice');
});

test("a person's checks are counted under their own rate limit, not the key's", async () => {
  await users.create({ username: 'ivan', env: 'sandbox', password: PASSWORD });
  const { cookie } = await signIn('ivan');
  let status = 200;
  let n = 0;
  while (status === 200 && n < 60) {
    status = (await check(cookie)).status;
    n++;
  }
  assert.equal(status, 429);
  assert.equal(n, 51, 'the default 50 checks a minute');
  assert.equal((await check(null, { apikey: TEST_KEY })).status, 200, 'the machine key has its own budget');
  const other = await signIn('alice');
  assert.equal((await check(other.cookie)).status, 200, 'another person has their own budget');
});

test('invalid sign-in bodies are 400, and a sign-in flood from one address is 429', async (t) => {
  const res = await call(`${server.url}/console/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...CONSOLE },
    body: JSON.stringify({ username: 'x' }),
  });
  assert.equal(res.status, 400);
  const limited = await startTestServer({ env: { COVERAGE_CONSOLE_SIGN_INS_PER_MINUTE: '3' } });
  t.after(() => limited.close());
  const attempt = () =>
    fetch(`${limited.url}/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...CONSOLE },
      body: JSON.stringify({ username: 'flood', password: 'whatever password' }),
    });
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await attempt()).status);
  assert.deepEqual(statuses, [401, 401, 401, 429]);
});

test("a person's batches are theirs: another person and the machine key do not see them", async () => {
  await users.create({ username: 'jules', env: 'sandbox', password: PASSWORD });
  await users.create({ username: 'kim', env: 'sandbox', password: PASSWORD });
  const jules = await signIn('jules');
  const kim = await signIn('kim');
  const created = await call(`${server.url}/v1/batches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: jules.cookie!, ...CONSOLE },
    body: JSON.stringify({ checks: [{ endpoint: 'estimate', request: estimateBody() }] }),
  });
  assert.equal(created.status, 202);
  const { id } = (await created.json()) as { id: string };
  const progress = (headers: Record<string, string>) => call(`${server.url}/v1/batches/${id}`, { headers });
  assert.equal((await progress({ cookie: jules.cookie!, ...CONSOLE })).status, 200);
  assert.equal((await progress({ cookie: kim.cookie!, ...CONSOLE })).status, 404);
  assert.equal((await progress({ apikey: TEST_KEY })).status, 404);
  // The row's audit record, written by the batch runner, names the person too.
  const julesId = (await users.get('jules'))!.id;
  await eventually('batch done', async () => (await (await progress({ cookie: jules.cookie!, ...CONSOLE })).json()).status === 'completed');
  const record = await server.runtime.db.kysely.selectFrom('audit_events').selectAll().where('request_id', '=', `${id}.1`).executeTakeFirstOrThrow();
  assert.deepEqual([record.key_id, record.user_id], [julesId, julesId]);
});

test('the log tells the operator about sign-ins without the typed username or password', async (t) => {
  let log = '';
  const logStream = new Writable({ write: (chunk, _enc, done) => void ((log += chunk.toString()), done()) });
  const logged = await startTestServer({ logStream });
  t.after(() => logged.close());
  const { user } = await new UserStore(logged.runtime.db).create({ username: 'lena', env: 'sandbox', password: PASSWORD });
  const attempt = (username: string, password: string) =>
    fetch(`${logged.url}/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...CONSOLE },
      body: JSON.stringify({ username, password }),
    });
  assert.equal((await attempt('lena', 'typed-secret-guess-1')).status, 401);
  assert.equal((await attempt('typed-unknown-name', 'typed-secret-guess-2')).status, 401);
  assert.equal((await attempt('lena', PASSWORD)).status, 200);
  await eventually('sign-in logged', async () => log.includes('"event":"console_sign_in"'));
  const events = log
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((e) => typeof e.event === 'string');
  assert.deepEqual(
    events.map((e) => [e.event, e.reason ?? null, e.user_id]),
    [
      ['console_sign_in_failed', 'bad_password', user.id],
      ['console_sign_in_failed', 'no_such_user', null],
      ['console_sign_in', null, user.id],
    ],
  );
  for (const typed of ['typed-secret-guess', 'typed-unknown-name', PASSWORD]) assert.ok(!log.includes(typed), typed);
});

test('sign-ins, failed sign-ins and sign-outs are in the audit trail by user id (never the typed name), and usage counts checks only', async () => {
  const { user } = await users.create({ username: 'audited-person', env: 'sandbox', password: PASSWORD });
  const unknownRows = async () => {
    await server.runtime.audit.flush();
    return (
      await server.runtime.db.kysely.selectFrom('audit_events').select('user_id').where('key_id', '=', '-').where('error_code', '=', 'no_such_user').execute()
    ).length;
  };
  const unknownBefore = await unknownRows();
  const good = await signIn('audited-person');
  assert.equal(good.status, 200);
  const wrong = await signIn('audited-person', 'not the password at all');
  assert.equal(wrong.status, 401);
  const nobody = await signIn('nobody-by-this-name', PASSWORD);
  assert.equal(nobody.status, 401);
  const out = await call(`${server.url}/console/session`, { method: 'DELETE', headers: { ...CONSOLE, cookie: good.cookie! } });
  assert.equal(out.status, 204);
  await server.runtime.audit.flush();
  const rows = await server.runtime.db.kysely
    .selectFrom('audit_events')
    .select(['key_id', 'user_id', 'endpoint', 'status', 'error_code', 'payer_id', 'member_hash'])
    .where('endpoint', 'in', ['console_sign_in', 'console_sign_in_failed', 'console_sign_out'])
    .orderBy('at')
    .execute();
  assert.equal(await unknownRows(), unknownBefore + 1, 'a failed sign-in for no such user is recorded, under -');
  const mine = rows.filter((r) => r.user_id === user.id).map((r) => JSON.stringify([r.endpoint, r.status, r.error_code, r.user_id, r.payer_id, r.member_hash]));
  assert.deepEqual(
    mine.sort(),
    [
      ['console_sign_in', 200, null, user.id, null, null],
      ['console_sign_in_failed', 401, 'bad_password', user.id, null, null],
      ['console_sign_out', 204, null, user.id, null, null],
    ]
      .map((r) => JSON.stringify(r))
      .sort(),
  );
  assert.ok(!JSON.stringify(rows).includes('nobody-by-this-name'), 'a typed username is never stored');
  const usage = await usageCounts(server.runtime.db);
  assert.ok(
    usage.every((r) => !r.endpoint.startsWith('console_')),
    'usage counts checks, not sign-ins',
  );
});

// Issue 39, item 4: sign-in records are committed before the answer, as checks' are; a sign-in the
// store will not record is not granted.
test('a sign-in whose audit record cannot be written is answered 503, and its session does not work', async () => {
  await users.create({ username: 'unrecorded-person', env: 'sandbox', password: PASSWORD });
  const sqlite = server.runtime.db.sqlite!;
  sqlite.exec(`create trigger refuse_audit before insert on audit_events begin select raise(abort, 'disk full'); end`);
  let res;
  try {
    res = await signIn('unrecorded-person');
  } finally {
    sqlite.exec('drop trigger refuse_audit');
  }
  assert.equal(res.status, 503);
  assert.equal(res.body.error_code, 'SERVICE_UNAVAILABLE');
  if (res.cookie) assert.equal((await whoami(res.cookie)).status, 401, 'the session was ended');
  await server.runtime.audit.flush();
  const row = await server.runtime.db.kysely
    .selectFrom('audit_events')
    .select(['endpoint', 'status', 'error_code'])
    .where('request_id', '=', res.requestId)
    .executeTakeFirst();
  assert.deepEqual(row, { endpoint: 'console_sign_in', status: 503, error_code: 'SERVICE_UNAVAILABLE' });
});

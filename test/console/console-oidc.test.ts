/**
 * Console sign-in through OpenID Connect, against a small identity provider run by the test:
 * discovery, JWKS, and a token endpoint that checks the client secret and the PKCE verifier and
 * signs ID tokens with its own RSA key. Each way a token can be wrong is tried once.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { after, before, test } from 'node:test';
import { requestFor } from '../helpers/requests.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { sandboxMemberTable } from '../../src/sandbox/member-table.ts';
import { UserStore } from '../../src/store/users.ts';
import { loadConfig } from '../../src/server/config.ts';
import { OidcClient } from '../../src/http/auth/oidc.ts';

import { CLIENT_ID, CLIENT_SECRET, REDIRECT_URI, TestProvider } from '../helpers/oidc-provider.ts';

const idp = new TestProvider();
let server: TestServer;
let users: UserStore;

before(async () => {
  await idp.start();
  server = await startTestServer({
    env: {
      COVERAGE_OIDC_ISSUER: idp.url,
      COVERAGE_OIDC_CLIENT_ID: CLIENT_ID,
      COVERAGE_OIDC_CLIENT_SECRET: CLIENT_SECRET,
      COVERAGE_OIDC_REDIRECT_URI: REDIRECT_URI,
      COVERAGE_OIDC_LABEL: 'Sign in with Clinic Google',
    },
  });
  users = new UserStore(server.runtime.db);
  await users.create({ username: 'alice@clinic.example', env: 'sandbox', sso: true });
});
after(async () => {
  await server?.close();
  await idp.stop();
});

const cookiesOf = (res: Response) => res.headers.getSetCookie();

/** The browser's round trip: start, the provider, the callback. */
async function ssoSignIn(
  claims: Record<string, unknown>,
  options: { signWith?: KeyObject; header?: Record<string, unknown>; state?: string; skipPending?: boolean } = {},
) {
  const start = await fetch(`${server.url}/console/oidc/start`, { redirect: 'manual' });
  assert.equal(start.status, 302);
  const authorize = start.headers.get('location')!;
  const pending = cookiesOf(start)[0]!;
  assert.match(pending, /^coverage_oidc=\S+; Path=\/console\/oidc; HttpOnly; SameSite=Lax; Max-Age=600$/);
  const code = idp.issue(authorize, claims, options);
  const state = options.state ?? new URL(authorize).searchParams.get('state')!;
  const callbackUrl = `${server.url}/console/oidc/callback?code=${code}&state=${encodeURIComponent(state)}`;
  const headers: Record<string, string> = options.skipPending ? {} : { cookie: pending.split(';')[0]! };
  const callback = await fetch(callbackUrl, { redirect: 'manual', headers });
  const session = cookiesOf(callback).find((c) => c.startsWith('coverage_session='));
  return {
    status: callback.status,
    location: callback.headers.get('location'),
    session: session ?? null,
    authorize: new URL(authorize),
    cookies: cookiesOf(callback),
    /** The same callback again, as a replay would send it. */
    replay: () => fetch(callbackUrl, { redirect: 'manual', headers }),
  };
}

test('start: the provider is asked for a code with state, nonce and a PKCE S256 challenge', async () => {
  const start = await fetch(`${server.url}/console/oidc/start`, { redirect: 'manual' });
  const url = new URL(start.headers.get('location')!);
  assert.equal(`${url.origin}${url.pathname}`, `${idp.url.replace('127.0.0.1', 'localhost')}/authorize`);
  const q = Object.fromEntries(url.searchParams);
  assert.deepEqual(
    { response_type: q.response_type, client_id: q.client_id, redirect_uri: q.redirect_uri, scope: q.scope, method: q.code_challenge_method },
    { response_type: 'code', client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, scope: 'openid email profile', method: 'S256' },
  );
  for (const name of ['state', 'nonce', 'code_challenge']) assert.match(q[name]!, /^[A-Za-z0-9_-]{43}$/, name);
  const signedOut = await (await fetch(`${server.url}/console/session`)).json();
  assert.equal(signedOut.sso_label, 'Sign in with Clinic Google');
});

test('a verified person with a user here is signed in, and their checks are audited as them', async () => {
  const done = await ssoSignIn({ email: 'Alice@Clinic.example', email_verified: true });
  assert.equal(done.status, 302);
  assert.equal(done.location, '/console/');
  assert.match(done.session!, /^coverage_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
  assert.ok(
    done.cookies.some((c) => /^coverage_oidc=; .*Max-Age=0/.test(c)),
    'the round-trip cookie is cleared',
  );
  const cookie = done.session!.split(';')[0]!;
  const who = await (await fetch(`${server.url}/console/session`, { headers: { cookie } })).json();
  assert.equal(who.username, 'alice@clinic.example');
  const member = sandboxMemberTable().find((m) => m.endpoints[0] === 'estimate' && m.expected_status === 200 && m.first_name !== null)!;
  const res = await fetch(`${server.url}/v1/estimate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'x-coverage-console': '1' },
    body: JSON.stringify(requestFor('estimate', member)),
  });
  assert.equal(res.status, 200);
  await server.runtime.audit.flush();
  const record = await server.runtime.db.kysely
    .selectFrom('audit_events')
    .selectAll()
    .where('request_id', '=', res.headers.get('x-request-id')!)
    .executeTakeFirstOrThrow();
  assert.equal(record.user_id, (await users.get('alice@clinic.example'))!.id);
});

test('refused, always with the same redirect: unknown, disabled, unverified email, and every bad token', async () => {
  await users.create({ username: 'bob@clinic.example', env: 'sandbox', sso: true });
  await users.disable('bob@clinic.example');
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const now = Math.floor(Date.now() / 1000);
  const alice = { email: 'alice@clinic.example', email_verified: true };
  const cases: [string, Record<string, unknown>, Parameters<typeof ssoSignIn>[1]?][] = [
    ['no user here', { email: 'mallory@clinic.example', email_verified: true }],
    ['disabled user', { email: 'bob@clinic.example', email_verified: true }],
    ['email not verified', { email: 'alice@clinic.example', email_verified: false }],
    ['signed by another key', alice, { signWith: other }],
    ['another audience', { ...alice, aud: 'someone-else' }],
    ['two audiences, azp not us', { ...alice, aud: [CLIENT_ID, 'other'], azp: 'other' }],
    ['another issuer', { ...alice, iss: 'https://evil.example' }],
    ['expired', { ...alice, exp: now - 600, iat: now - 900 }],
    ['issued in the future', { ...alice, iat: now + 600, exp: now + 900 }],
    ['another nonce', { ...alice, nonce: 'not-the-nonce' }],
    ['state does not match', alice, { state: 'forged' }],
    ['no pending cookie (login CSRF)', alice, { skipPending: true }],
    // Issue 23, finding 7: we understand no critical JWS extension (RFC 7515, 4.1.11).
    ['a critical header parameter', alice, { header: { crit: ['exp'], exp: now + 300 } }],
    ['an empty crit list', alice, { header: { crit: [] } }],
  ];
  for (const [name, claims, options] of cases) {
    const done = await ssoSignIn(claims, options);
    assert.deepEqual([done.status, done.location, done.session], [302, '/console/?sign_in=sso_failed', null], name);
  }
});

// Issue 23, finding 7: replaying a callback (its code, state and round-trip cookie) gave a second session.
test('a callback is good once: a replay gets no second session, even from a provider that takes a code twice', async (t) => {
  idp.reusableCodes = true;
  t.after(() => (idp.reusableCodes = false));
  const first = await ssoSignIn({ email: 'alice@clinic.example', email_verified: true });
  assert.equal(first.location, '/console/');
  assert.ok(first.session);
  const tokenRequests = idp.tokenRequests;
  const again = await first.replay();
  assert.equal(again.status, 302);
  assert.equal(again.headers.get('location'), '/console/?sign_in=sso_failed');
  assert.ok(!cookiesOf(again).some((c) => c.startsWith('coverage_session=')), 'no second session');
  assert.equal(idp.tokenRequests, tokenRequests, 'the used state is refused before the code is exchanged');
});

test('an SSO-only user has no password here: a password sign-in fails like any other', async () => {
  const res = await fetch(`${server.url}/console/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-coverage-console': '1' },
    body: JSON.stringify({ username: 'alice@clinic.example', password: '!sso-only' }),
  });
  assert.equal(res.status, 401);
  const row = await server.runtime.db.kysely
    .selectFrom('users')
    .select('password_hash')
    .where('username', '=', 'alice@clinic.example')
    .executeTakeFirstOrThrow();
  assert.doesNotMatch(row.password_hash, /^\$argon2/);
});

test('the provider unreachable: back to the console with a notice, not an error page', async (t) => {
  const offline = await startTestServer({
    env: {
      COVERAGE_OIDC_ISSUER: 'http://127.0.0.1:9',
      COVERAGE_OIDC_CLIENT_ID: CLIENT_ID,
      COVERAGE_OIDC_CLIENT_SECRET: CLIENT_SECRET,
      COVERAGE_OIDC_REDIRECT_URI: REDIRECT_URI,
    },
  });
  t.after(() => offline.close());
  const start = await fetch(`${offline.url}/console/oidc/start`, { redirect: 'manual' });
  assert.equal(start.status, 302);
  assert.equal(start.headers.get('location'), '/console/?sign_in=sso_unavailable');
});

test('configuration: the OIDC settings come together, with the callback path fixed', () => {
  const base = {
    COVERAGE_OIDC_ISSUER: 'https://accounts.google.com',
    COVERAGE_OIDC_CLIENT_ID: 'id',
    COVERAGE_OIDC_CLIENT_SECRET: 's',
    COVERAGE_OIDC_REDIRECT_URI: REDIRECT_URI,
  };
  assert.equal(loadConfig({}).console.oidc, null);
  assert.deepEqual(loadConfig(base).console.oidc, {
    issuer: 'https://accounts.google.com',
    clientId: 'id',
    clientSecret: 's',
    redirectUri: REDIRECT_URI,
    usernameClaim: 'email',
    label: 'Sign in with your organization account',
  });
  assert.throws(
    () => loadConfig({ COVERAGE_OIDC_ISSUER: 'https://accounts.google.com' }),
    /COVERAGE_OIDC_CLIENT_ID, COVERAGE_OIDC_CLIENT_SECRET, COVERAGE_OIDC_REDIRECT_URI/,
  );
  assert.throws(() => loadConfig({ ...base, COVERAGE_OIDC_REDIRECT_URI: 'https://x.example/elsewhere' }), /\/console\/oidc\/callback/);
  assert.throws(() => new OidcClient({ ...loadConfig(base).console.oidc!, issuer: 'http://idp.example' }), /not https/);
});

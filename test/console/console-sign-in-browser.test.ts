/**
 * Console sign-in in Debian's Chromium: a person signs in, runs a check that is audited with
 * their name, signs out; idle logoff with the page's clock moved forward (never a real wait).
 * Also sign-in through an OpenID Connect provider run by the test.
 * Screenshots: docs/screenshots/console-sign-in.png, console-signed-in.png. Skips when /usr/bin/chromium is absent.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { UserStore } from '../../src/store/users.ts';
import { CLIENT_ID, CLIENT_SECRET, REDIRECT_URI, TestProvider } from '../helpers/oidc-provider.ts';
import { needsChromium } from '../helpers/needs.ts';
import { launchChromium, collectProblems } from '../helpers/browser.ts';

const skip = needsChromium();
const SHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const PASSWORD = 'front desk password 1';

let server: TestServer;
let browser: Browser;
let users: UserStore;

before(async () => {
  if (skip) return;
  server = await startTestServer();
  users = new UserStore(server.runtime.db);
  await users.create({ username: 'alice', env: 'sandbox', password: PASSWORD });
  await users.create({ username: 'bob', env: 'sandbox', password: PASSWORD });
  await users.create({ username: 'carol', env: 'sandbox', password: PASSWORD });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function openConsole(options: { clock?: boolean } = {}): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  page.setDefaultTimeout(15_000);
  const problems = collectProblems(page);
  if (options.clock) await page.clock.install();
  await page.goto(`${server.url}/console`);
  return { page, problems };
}

async function signIn(page: Page, username: string, password = PASSWORD) {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const sessionsOf = async (username: string) => {
  const user = await users.get(username);
  return server.runtime.db.kysely.selectFrom('console_sessions').selectAll().where('user_id', '=', user!.id).execute();
};

test('a person signs in, checks a patient as themselves, and signs out', { skip }, async () => {
  const { page, problems } = await openConsole();
  await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
  assert.equal(await page.locator('#main').isVisible(), false, 'nothing of the console before sign-in');
  assert.equal(await page.getByLabel('API key').isVisible(), false, 'no key to paste once users exist');

  await signIn(page, 'alice', 'not the password');
  await page.getByText(/Sign-in failed: check the username, password and one-time code/).waitFor();
  assert.equal(await page.getByLabel('Password').inputValue(), '', 'the password field is cleared');
  await page.getByLabel('Username').fill('alice');
  await page.screenshot({ path: `${SHOTS}console-sign-in.png` });

  await signIn(page, 'alice');
  await page.getByText('Signed in as').waitFor();
  assert.equal(await page.locator('#account-name').textContent(), 'alice');
  assert.equal(await page.evaluate(() => document.cookie), '', 'the session cookie is HttpOnly: no script can read it');
  assert.equal(await page.evaluate(() => sessionStorage.length), 0, 'no key in the page');

  await page.getByLabel('Member ID').fill('10040MHCA');
  await page.getByLabel('First name').fill('Maya');
  await page.getByLabel('Last name').fill('Goldberg');
  await page.getByLabel('Date of birth').fill('1993-03-19');
  await page.getByLabel('Provider NPI').fill('1234567893');
  await page.getByLabel('Session cost ($)').fill('150');
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/v1/estimate')),
    page.getByRole('button', { name: 'Check coverage' }).click(),
  ]);
  assert.equal(response.status(), 200);
  await page.locator('article.card').waitFor();
  await server.runtime.audit.flush();
  const record = await server.runtime.db.kysely
    .selectFrom('audit_events')
    .selectAll()
    .where('request_id', '=', (await response.headerValue('x-request-id'))!)
    .executeTakeFirstOrThrow();
  assert.equal(record.user_id, (await users.get('alice'))!.id);

  // A reload keeps the person signed in (the cookie), and sign-out ends it on the server.
  await page.reload();
  await page.getByText('Signed in as').waitFor();
  assert.equal((await sessionsOf('alice')).length, 1);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByText('You have signed out.').waitFor();
  assert.equal(await page.locator('article.card').count(), 0, 'the last result is gone from the page');
  assert.equal((await sessionsOf('alice')).length, 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('idle logoff: a warning before the timeout, then the page signs out and clears itself', { skip }, async () => {
  const { page, problems } = await openConsole({ clock: true });
  await signIn(page, 'bob');
  await page.getByText('Signed in as').waitFor();
  await page.getByLabel('First name').fill('Maya');

  await page.clock.runFor('14:10');
  await page.getByRole('alertdialog').waitFor();
  assert.match((await page.getByRole('alertdialog').textContent()) ?? '', /signed out in \d+ seconds/);
  await page.getByRole('button', { name: 'Stay signed in' }).click();
  assert.equal(await page.getByRole('alertdialog').isVisible(), false);

  await page.clock.runFor('14:30');
  assert.equal(await page.locator('#main').isVisible(), true, 'the click counted as activity');
  await page.clock.runFor('01:00');
  await page.getByText('You were signed out after a period without activity').waitFor();
  assert.equal(await page.locator('#main').isVisible(), false);
  assert.equal(await page.getByLabel('First name').inputValue(), '', 'what was typed is gone');
  assert.equal((await sessionsOf('bob')).length, 0, 'the session ended on the server too');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a session the server ended (user disabled) sends the page back to sign-in', { skip }, async () => {
  const { page } = await openConsole();
  await signIn(page, 'carol');
  await page.getByText('Signed in as').waitFor();
  await users.disable('carol');
  await page.getByLabel('Member ID').fill('10040MHCA');
  await page.getByRole('button', { name: 'Check coverage' }).click();
  await page.getByText('Your session has ended').waitFor();
  assert.equal(await page.locator('#main').isVisible(), false);
  await page.close();
});

test('sign-in through the identity provider: the button, the round trip across sites, the console', { skip }, async (t) => {
  const idp = new TestProvider();
  await idp.start();
  const sso = await startTestServer({
    env: {
      COVERAGE_OIDC_ISSUER: idp.url,
      COVERAGE_OIDC_CLIENT_ID: CLIENT_ID,
      COVERAGE_OIDC_CLIENT_SECRET: CLIENT_SECRET,
      COVERAGE_OIDC_REDIRECT_URI: REDIRECT_URI,
      COVERAGE_OIDC_LABEL: 'Sign in with Clinic Google',
    },
  });
  t.after(async () => {
    await sso.close();
    await idp.stop();
  });
  await new UserStore(sso.runtime.db).create({ username: 'dora@clinic.example', env: 'sandbox', sso: true });
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  page.setDefaultTimeout(15_000);
  await page.goto(`${sso.url}/console`);

  // Someone the provider knows but who has no user here comes back refused.
  idp.browser = { claims: { email: 'mallory@clinic.example', email_verified: true }, serviceUrl: sso.url };
  await page.getByRole('link', { name: 'Sign in with Clinic Google' }).click();
  await page.getByText('Sign-in through your organization did not complete').waitFor();
  assert.equal(new URL(page.url()).search, '', 'the notice is taken off the address');

  idp.browser = { claims: { email: 'dora@clinic.example', email_verified: true }, serviceUrl: sso.url };
  await page.getByRole('link', { name: 'Sign in with Clinic Google' }).click();
  await page.getByText('Signed in as').waitFor();
  assert.equal(await page.locator('#account-name').textContent(), 'dora@clinic.example');
  await page.screenshot({ path: `${SHOTS}console-signed-in.png` });
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByText('You have signed out.').waitFor();
  await page.close();
});

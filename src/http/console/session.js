// Who is using the console. People sign in (POST /console/session); the server keeps the session
// in an HttpOnly cookie this script never sees, and every API call says it comes from the console
// (x-coverage-console: 1). Only a sandbox server with no users yet lets an API key stand in,
// kept in this tab's sessionStorage. After the idle timeout without a key press or click the page
// signs out and reloads, so nothing of the last patient stays on screen.

import { showMode } from './mode.js';

const KEY_STORAGE = 'coverage-console.apikey';
const NOTICE_STORAGE = 'coverage-console.notice';
const CONSOLE_HEADER = { 'x-coverage-console': '1' };
/** While the person is active, the server hears from the page at least this often (it counts idle time too). */
const KEEPALIVE_MS = 60_000;

const $ = (id) => document.getElementById(id);

const state = { mode: null, env: null, user: null, idleMs: 0, lastActivity: Date.now(), lastServerContact: 0, timer: null, onReady: () => {} };

const getKey = () => sessionStorage.getItem(KEY_STORAGE);

/** Whether API calls can be made: a person signed in, or a key entered. */
/** 'sandbox' or 'production' once known: an API key stands in only on a sandbox server. */
export const serverEnv = () => state.env;
export const hasAccess = () => state.mode === 'session' || (state.mode === 'key' && Boolean(getKey()));

/** fetch for this server's API, as the signed-in person or with the key. */
export async function api(path, options = {}) {
  if (state.mode === 'key') {
    const key = getKey();
    if (!key) throw new Error('Enter an API key first.');
    return fetch(path, { ...options, headers: { apikey: key, ...(options.headers ?? {}) } });
  }
  if (state.mode !== 'session') throw new Error('Sign in first.');
  const res = await fetch(path, { ...options, credentials: 'same-origin', headers: { ...CONSOLE_HEADER, ...(options.headers ?? {}) } });
  state.lastServerContact = Date.now();
  // The server ended the session (idle, disabled, reset): back to the sign-in form, page cleared.
  if (res.status === 401) endSession('ended');
  return res;
}

const NOTICES = {
  idle: 'You were signed out after a period without activity. Sign in again to continue.',
  ended: 'Your session has ended. Sign in again to continue.',
  out: 'You have signed out.',
  sso_failed: 'Sign-in through your organization did not complete, or your account is not enabled here. Try again, or ask the administrator.',
  sso_unavailable: "Your organization's sign-in could not be reached. Try again shortly.",
};

/** The identity provider's answer comes back as ?sign_in=…: shown once, then taken off the address. */
function noticeFromAddress() {
  const params = new URLSearchParams(location.search);
  const notice = params.get('sign_in');
  if (!notice) return;
  if (NOTICES[notice]) sessionStorage.setItem(NOTICE_STORAGE, notice);
  history.replaceState(null, '', location.pathname);
}

function show(section) {
  $('sign-in').hidden = section !== 'sign-in';
  $('main').hidden = section !== 'main';
}

function showSignIn(info) {
  state.mode = null;
  $('account').hidden = true;
  $('key-form').hidden = true;
  $('setup-hint').hidden = info.users_configured;
  $('sign-in-form').hidden = !info.users_configured;
  $('sso').hidden = !info.sso_label;
  $('sso-link').textContent = info.sso_label ?? '';
  const notice = sessionStorage.getItem(NOTICE_STORAGE);
  sessionStorage.removeItem(NOTICE_STORAGE);
  $('sign-in-message').textContent = notice ? (NOTICES[notice] ?? '') : '';
  show('sign-in');
  if (info.users_configured) $('username').focus();
}

function showKeyMode() {
  state.mode = 'key';
  state.env = 'sandbox';
  $('account').hidden = true;
  $('key-form').hidden = false;
  $('key-fallback-hint').hidden = false;
  const key = getKey();
  $('key-entry').hidden = Boolean(key);
  $('key-help').hidden = Boolean(key);
  $('key-set').hidden = !key;
  $('key-hint').textContent = key ? `…${key.slice(-4)}` : '';
  show(key ? 'main' : 'sign-in');
  $('sign-in-form').hidden = true;
  $('setup-hint').hidden = false;
}

function signedIn(info) {
  state.mode = 'session';
  state.env = info.env ?? null;
  state.user = info.username;
  state.idleMs = info.idle_timeout_seconds * 1000;
  state.lastActivity = Date.now();
  state.lastServerContact = Date.now();
  sessionStorage.removeItem(KEY_STORAGE);
  $('key-form').hidden = true;
  $('account').hidden = false;
  $('account-name').textContent = info.username;
  show('main');
  startIdleWatch();
  state.onReady();
}

/** Sign out on the server, then reload: the page forgets every result it showed. */
async function endSession(notice) {
  if (state.mode !== 'session') return;
  state.mode = null;
  clearInterval(state.timer);
  try {
    await fetch('/console/session', { method: 'DELETE', credentials: 'same-origin', headers: CONSOLE_HEADER });
  } finally {
    sessionStorage.setItem(NOTICE_STORAGE, notice);
    location.reload();
  }
}

// ---- idle logoff ----

function startIdleWatch() {
  clearInterval(state.timer);
  const warnMs = Math.min(60_000, state.idleMs / 4);
  state.timer = setInterval(() => {
    const idle = Date.now() - state.lastActivity;
    if (idle >= state.idleMs) {
      void endSession('idle');
      return;
    }
    const left = state.idleMs - idle;
    $('idle-warning').hidden = left > warnMs;
    if (left <= warnMs) $('idle-countdown').textContent = `${Math.ceil(left / 1000)} seconds`;
  }, 1000);
}

function activity() {
  if (state.mode !== 'session') return;
  state.lastActivity = Date.now();
  $('idle-warning').hidden = true;
  if (Date.now() - state.lastServerContact >= KEEPALIVE_MS) {
    state.lastServerContact = Date.now();
    void fetch('/console/session', { credentials: 'same-origin', headers: CONSOLE_HEADER }).then((res) => res.status === 401 && endSession('ended'));
  }
}

for (const type of ['keydown', 'pointerdown']) document.addEventListener(type, activity, { capture: true, passive: true });
$('idle-stay').addEventListener('click', activity);

// ---- forms ----

$('sign-in-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const body = { username: $('username').value.trim(), password: $('password').value };
  const code = $('totp').value.replace(/\s/g, '');
  if (code) body.totp = code;
  $('sign-in-submit').disabled = true;
  $('sign-in-message').textContent = 'Signing in…';
  try {
    const res = await fetch('/console/session', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', ...CONSOLE_HEADER },
      body: JSON.stringify(body),
    });
    const answer = await res.json();
    $('password').value = '';
    $('totp').value = '';
    if (res.ok) {
      $('sign-in-message').textContent = '';
      $('username').value = '';
      signedIn(answer);
      return;
    }
    $('sign-in-message').textContent = answer.message ?? `Sign-in failed (${res.status}).`;
    $('password').focus();
  } catch {
    $('sign-in-message').textContent = 'The server could not be reached.';
  } finally {
    $('sign-in-submit').disabled = false;
  }
});

$('sign-out').addEventListener('click', () => void endSession('out'));

$('key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const value = $('apikey').value.trim();
  if (!value) {
    $('apikey').focus();
    return;
  }
  sessionStorage.setItem(KEY_STORAGE, value);
  $('apikey').value = '';
  showKeyMode();
  state.onReady();
  $('key-forget').focus();
});

$('key-forget').addEventListener('click', () => {
  sessionStorage.removeItem(KEY_STORAGE);
  showKeyMode();
  $('apikey').focus();
});

/** Asks the server who is signed in and shows the sign-in form, the key form or the console. */
export async function startAccess({ onReady }) {
  state.onReady = onReady;
  noticeFromAddress();
  let res;
  try {
    res = await fetch('/console/session', { credentials: 'same-origin', headers: CONSOLE_HEADER });
  } catch {
    $('sign-in-message').textContent = 'The server could not be reached. Reload the page to try again.';
    show('sign-in');
    return;
  }
  const info = await res.json();
  showMode(info.env);
  if (res.ok) signedIn(info);
  else if (info.api_key_allowed) {
    showKeyMode();
    if (getKey()) onReady();
  } else {
    sessionStorage.removeItem(KEY_STORAGE);
    showSignIn(info);
  }
}

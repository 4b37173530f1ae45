/**
 * GET /console/oidc/start sends the browser to the identity provider; GET /console/oidc/callback
 * takes it back, checks the ID token (oidc.ts), and signs the person in as the user of that name.
 * What the round trip must remember (state, nonce, PKCE verifier) rides in a short-lived HttpOnly
 * cookie limited to these two paths; SameSite=Lax because the callback is a navigation from the
 * provider's site, on which a Strict cookie would not be sent.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ConsoleAccess, overTls, readCookie, setSessionCookie } from '../auth/console-auth.ts';
import { OidcClient, OidcError, type PendingSignIn } from '../auth/oidc.ts';

const PENDING_COOKIE = 'coverage_oidc';
const PENDING_PATH = '/console/oidc';
const PENDING_SECONDS = 600;

function pendingCookie(reply: FastifyReply, request: FastifyRequest, value: string, maxAge: number, trustProxy: boolean): void {
  const attributes = [`Path=${PENDING_PATH}`, 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAge}`, ...(overTls(request, trustProxy) ? ['Secure'] : [])];
  reply.header('set-cookie', `${PENDING_COOKIE}=${value}; ${attributes.join('; ')}`);
}

function readPending(request: FastifyRequest): PendingSignIn | null {
  const raw = readCookie(request, PENDING_COOKIE);
  if (!raw) return null;
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<PendingSignIn>;
    if (typeof value.state !== 'string' || typeof value.nonce !== 'string' || typeof value.verifier !== 'string') return null;
    return { state: value.state, nonce: value.nonce, verifier: value.verifier };
  } catch {
    return null;
  }
}

export function registerConsoleOidcRoutes(
  app: FastifyInstance,
  access: ConsoleAccess & { oidc: NonNullable<ConsoleAccess['oidc']> },
  client = new OidcClient(access.oidc),
): void {
  const failed = (reply: FastifyReply, why: 'sso_failed' | 'sso_unavailable') => reply.redirect(`/console/?sign_in=${why}`, 302);

  app.get('/console/oidc/start', { schema: { hide: true } }, async (request, reply) => {
    let started: Awaited<ReturnType<OidcClient['start']>>;
    try {
      started = await client.start();
    } catch (err) {
      request.log.error(
        { event: 'console_sso_unavailable', reason: err instanceof OidcError ? err.message : (err as Error)?.name },
        'identity provider unavailable',
      );
      return failed(reply, 'sso_unavailable');
    }
    pendingCookie(reply, request, Buffer.from(JSON.stringify(started.pending)).toString('base64url'), PENDING_SECONDS, access.trustProxy);
    return reply.redirect(started.url, 302);
  });

  app.get('/console/oidc/callback', { schema: { hide: true } }, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const pending = readPending(request);
    // The round trip's cookie is used once, whatever happens next.
    pendingCookie(reply, request, '', 0, access.trustProxy);
    if (!pending) {
      request.log.warn({ event: 'console_sign_in_failed', method: 'oidc', reason: 'no pending sign-in' }, 'console sign-in failed');
      return failed(reply, 'sso_failed');
    }
    // A state is good for one callback, whatever the provider does with a replayed code.
    if (!(await access.sessions.claimState(pending.state, PENDING_SECONDS * 1000))) {
      request.log.warn({ event: 'console_sign_in_failed', method: 'oidc', reason: 'state already used' }, 'console sign-in failed');
      return failed(reply, 'sso_failed');
    }
    let username: string;
    try {
      username = await client.finish({ code: text(query.code), state: text(query.state), error: text(query.error) }, pending);
    } catch (err) {
      const reason = err instanceof OidcError ? err.message : (err as Error)?.name;
      request.log.warn({ event: 'console_sign_in_failed', method: 'oidc', reason }, 'console sign-in failed');
      return failed(reply, 'sso_failed');
    }
    const result = await access.users.signInVouched(username, access.mode);
    if (!result.ok) {
      request.log.warn({ event: 'console_sign_in_failed', method: 'oidc', reason: result.reason, user_id: result.user_id ?? null }, 'console sign-in failed');
      await access.recordAccess?.(request, reply, 'console_sign_in_failed', result.user_id ?? null, 401, `sso_${result.reason}`);
      return failed(reply, 'sso_failed');
    }
    const { token } = await access.sessions.create(result.user.id);
    await access.sessions.purge();
    request.log.info({ event: 'console_sign_in', method: 'oidc', user_id: result.user.id }, 'console sign-in');
    // Committed before the answer (console-audit.ts); no session without its record.
    if ((await access.recordAccess?.(request, reply, 'console_sign_in', result.user.id, 302, 'sso')) === false) {
      await access.sessions.destroy(token);
      return failed(reply, 'sso_unavailable');
    }
    // Fastify appends a second set-cookie to the one clearing the pending cookie.
    setSessionCookie(reply, request, token, access.trustProxy);
    return reply.redirect('/console/', 302);
  });
}

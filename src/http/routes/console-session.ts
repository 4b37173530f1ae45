/**
 * Console sign-in: POST /console/session signs in (sets the coverage_session cookie), GET says
 * who is signed in, DELETE signs out. A failed sign-in has one answer whatever went wrong.
 * They serve the console page, not API clients, so the API document leaves them out (as it does /console).
 */
import { createHash } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { ConsoleSession, ConsoleSignedOut, ConsoleSignIn } from '../../domain/schemas/console.ts';
import { ErrorResponse } from '../../domain/schemas/responses.ts';
import type { ResolvedSession } from '../../store/console-sessions.ts';
import { PasswordQueueFull } from '../../store/password-queue.ts';
import { normalizeUsername } from '../../store/users.ts';
import {
  clearSessionCookie,
  CONSOLE_HEADER,
  type ConsoleAccess,
  hasConsoleHeader,
  readCookie,
  SESSION_COOKIE,
  setSessionCookie,
} from '../auth/console-auth.ts';
import { HttpErrors } from '../errors.ts';
import { registerConsoleOidcRoutes } from './console-oidc.ts';

const NO_STORE: Record<string, string> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};

export async function registerConsoleSessionRoutes(app: FastifyInstance, access: ConsoleAccess): Promise<void> {
  const view = (username: string, session: Omit<ResolvedSession, 'user'>) => ({
    username,
    env: access.mode,
    idle_timeout_seconds: Math.round(access.sessions.idleMs / 1000),
    idle_expires_at: session.idle_expires_at,
    expires_at: session.expires_at,
  });

  // Beside the limit per address: per username, whoever sends them (docs/console-access.md, "Lockout").
  const perUsername = app.createRateLimit({
    max: access.signInsPerUserPerMinute ?? 10,
    timeWindow: 60_000,
    // Asked in the handler, after the body was validated: username is a string. Kept hashed, as a
    // typed username may be a password typed in the wrong box (console-audit.ts keeps none either).
    keyGenerator: (request) =>
      `sign-in-user:${createHash('sha256')
        .update(normalizeUsername((request.body as { username: string }).username))
        .digest('base64url')}`,
  });

  await app.register(async (scope) => {
    const api = scope.withTypeProvider<TypeBoxTypeProvider>();
    scope.addHook('onSend', async (_request, reply, payload) => {
      for (const [k, v] of Object.entries(NO_STORE)) reply.header(k, v);
      return payload;
    });

    api.post(
      '/console/session',
      {
        schema: {
          hide: true,
          tags: ['console'],
          summary: 'Sign a person in to the console',
          description: `Sets the \`${SESSION_COOKIE}\` cookie (HttpOnly, SameSite=Strict). Send the \`${CONSOLE_HEADER}: 1\` header.`,
          body: ConsoleSignIn,
          response: { 200: ConsoleSession, 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse },
        },
        config: { rateLimit: { max: access.signInsPerMinute ?? 20, timeWindow: 60_000, keyGenerator: (request) => `sign-in:${request.ip}` } },
      },
      async (request, reply) => {
        if (!hasConsoleHeader(request)) throw HttpErrors.signInHeaderMissing();
        const limited = await perUsername(request).catch((err: unknown) => {
          // As for checks (rate-limit.ts): an unreachable Redis does not stop sign-ins; the lockout still holds.
          request.log.warn({ err_type: (err as Error)?.name }, 'rate limit store unreachable; sign-in not counted per username');
          return null;
        });
        if (limited && !limited.isAllowed && limited.isExceeded) {
          throw HttpErrors.signInsPerUser(limited.max, limited.ttlInSeconds).with({ retryAfterSeconds: limited.ttlInSeconds });
        }
        const result = await access.users.signIn({ ...request.body, env: access.mode }).catch((err: unknown) => {
          if (err instanceof PasswordQueueFull) {
            request.log.warn({ event: 'console_sign_in_busy', ...access.users.hashing.load }, 'console sign-in refused: password hashing queue full');
            throw HttpErrors.signInsBusy(err.retryAfterSeconds).with({ retryAfterSeconds: err.retryAfterSeconds });
          }
          throw err;
        });
        if (!result.ok) {
          // Committed before the answer, as a check's record is (console-audit.ts).
          const recorded = await access.recordAccess?.(request, reply, 'console_sign_in_failed', result.user_id ?? null, 401, result.reason);
          const level = result.reason === 'totp_unreadable' ? 'error' : 'warn';
          request.log[level](
            { event: 'console_sign_in_failed', reason: result.reason, user_id: result.user_id ?? null },
            result.reason === 'totp_unreadable'
              ? 'console sign-in failed: the TOTP secret is sealed under another COVERAGE_DATA_KEY'
              : 'console sign-in failed',
          );
          if (recorded === false) throw HttpErrors.signInUnrecorded();
          throw HttpErrors.signInFailed(access.users.maxFailures, Math.round(access.users.lockoutMs / 60_000));
        }
        const { token, session } = await access.sessions.create(result.user.id);
        // Sessions of closed browsers are ended at their next request, which never comes: sweep them here.
        await access.sessions.purge();
        request.log.info({ event: 'console_sign_in', user_id: result.user.id }, 'console sign-in');
        if ((await access.recordAccess?.(request, reply, 'console_sign_in', result.user.id, 200)) === false) {
          // No session without its record.
          await access.sessions.destroy(token);
          throw HttpErrors.signInUnrecorded();
        }
        setSessionCookie(reply, request, token, access.trustProxy);
        return reply.code(200).send(view(result.user.username, session));
      },
    );

    api.get(
      '/console/session',
      {
        schema: {
          hide: true,
          tags: ['console'],
          summary: 'Who is signed in to the console',
          description: 'Counts as activity: the idle timeout starts again.',
          response: { 200: ConsoleSession, 401: ConsoleSignedOut },
        },
      },
      async (request, reply) => {
        const token = readCookie(request, SESSION_COOKIE);
        const session = token ? await access.sessions.resolve(token) : null;
        if (session && session.user.env === access.mode) return reply.code(200).send(view(session.user.username, session));
        if (token) clearSessionCookie(reply, request, access.trustProxy);
        const usersConfigured = (await access.users.countActive(access.mode)) > 0;
        return reply.code(401).send({
          error_code: 'UNAUTHORIZED',
          message: usersConfigured ? 'Not signed in' : 'Not signed in; no console users exist yet: create one with `coverage users add`',
          request_id: request.id,
          env: access.mode,
          users_configured: usersConfigured,
          api_key_allowed: access.mode === 'sandbox' && !usersConfigured,
          sso_label: access.oidc?.label ?? null,
        });
      },
    );

    api.delete(
      '/console/session',
      {
        schema: {
          hide: true,
          tags: ['console'],
          summary: 'Sign out of the console',
          description: `Ends the session on the server and clears the cookie. Send the \`${CONSOLE_HEADER}: 1\` header.`,
          response: { 204: { type: 'null', description: 'Signed out' }, 401: ErrorResponse },
        },
      },
      async (request, reply) => {
        const token = readCookie(request, SESSION_COOKIE);
        if (token && !hasConsoleHeader(request)) throw HttpErrors.signInHeaderMissing();
        if (token) {
          const session = await access.sessions.resolve(token);
          if (session) await access.recordAccess?.(request, reply, 'console_sign_out', session.user.id, 204);
          await access.sessions.destroy(token);
          request.log.info({ event: 'console_sign_out' }, 'console sign-out');
        }
        clearSessionCookie(reply, request, access.trustProxy);
        return reply.code(204).send(null);
      },
    );
  });
  if (access.oidc) registerConsoleOidcRoutes(app, { ...access, oidc: access.oidc });
}

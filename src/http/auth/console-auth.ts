/**
 * People in the console: the `coverage_session` cookie, resolved to a user at every request.
 * auth.ts asks sessionPrincipal() when a request has no apikey header; a signed-in person then
 * acts under a principal of their own (their user id), so rate limits, batches and audit records
 * are per person. Cookie requests must carry `x-coverage-console: 1`: a page on another site
 * cannot set that header without CORS, which this server never grants (CSRF defence next to
 * SameSite=Strict).
 */
import type { AccessRecorder } from './console-audit.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleSessionStore, SessionUser } from '../../store/console-sessions.ts';
import type { OidcConfig } from './oidc.ts';
import type { Mode } from '../../domain/mode.ts';
import type { ApiKey } from '../../store/keys.ts';
import type { UserStore } from '../../store/users.ts';

export const SESSION_COOKIE = 'coverage_session';
export const CONSOLE_HEADER = 'x-coverage-console';

export interface ConsoleAccess {
  users: UserStore;
  sessions: ConsoleSessionStore;
  mode: Mode;
  /** Sign-in attempts per client address per minute, on top of the per-account lockout (default 20). */
  signInsPerMinute?: number;
  /** Sign-in attempts per username per minute, from any address (default 10). */
  signInsPerUserPerMinute?: number;
  /** Sign-in through the organization's identity provider (routes/console-oidc.ts); none when absent. */
  oidc?: OidcConfig | null;
  /** Believe X-Forwarded-Proto from the proxy in front (COVERAGE_TRUST_PROXY). */
  trustProxy: boolean;
  /** Where sign-ins and sign-outs are recorded (console-audit.ts); set by buildApp from its audit writer. */
  recordAccess?: AccessRecorder;
}

declare module 'fastify' {
  interface FastifyInstance {
    consoleAccess: ConsoleAccess | null;
  }
  interface FastifyRequest {
    /** The person signed in to the console who made this request; null for machine keys. */
    user: { id: string; username: string } | null;
  }
}

export function installConsoleAccess(app: FastifyInstance, access: ConsoleAccess | null): void {
  app.decorate('consoleAccess', access);
  app.decorateRequest('user', null);
}

export function readCookie(request: FastifyRequest, name: string): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** Whether the browser reached us over TLS: directly, or through a trusted proxy that says so. */
export function overTls(request: FastifyRequest, trustProxy: boolean): boolean {
  if ((request.raw.socket as { encrypted?: boolean }).encrypted) return true;
  if (!trustProxy) return false;
  const forwarded = request.headers['x-forwarded-proto'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim().toLowerCase();
  return first === 'https';
}

export const hasConsoleHeader = (request: FastifyRequest) => request.headers[CONSOLE_HEADER] === '1';

/** The principal a person's checks run under: shaped like a key so limits, batches and audit treat it alike. */
export function personPrincipal(user: SessionUser, since: string): ApiKey {
  return {
    id: user.id,
    name: `console user ${user.username}`,
    env: user.env,
    prefix: '',
    rate_limit_per_minute: null,
    created_at: since,
    revoked_at: null,
    last_used_at: null,
  };
}

/** Why a session cookie does not let a request in (auth.ts answers each with its declared error). */
export type SessionRefusal = { why: 'no_console_header' } | { why: 'ended' } | { why: 'other_network'; env: Mode; mode: Mode };

export type SessionAuth = { ok: true; apiKey: ApiKey; user: { id: string; username: string } } | ({ ok: false } & SessionRefusal);

/**
 * For auth.ts, when there is no apikey header: the person the session cookie names, or why the
 * request is refused; null when there is no session cookie at all.
 */
export async function sessionPrincipal(request: FastifyRequest): Promise<SessionAuth | null> {
  const access = request.server.consoleAccess;
  const token = readCookie(request, SESSION_COOKIE);
  if (!access || !token) return null;
  if (!hasConsoleHeader(request)) return { ok: false, why: 'no_console_header' };
  const session = await access.sessions.resolve(token);
  if (!session) return { ok: false, why: 'ended' };
  if (session.user.env !== access.mode) return { ok: false, why: 'other_network', env: session.user.env, mode: access.mode };
  const user = { id: session.user.id, username: session.user.username };
  request.user = user;
  return { ok: true, apiKey: personPrincipal(session.user, session.created_at), user };
}

export function setSessionCookie(reply: FastifyReply, request: FastifyRequest, token: string, trustProxy: boolean): void {
  // No Max-Age: the cookie goes when the browser closes; the server ends the session on its own clock.
  const attributes = ['Path=/', 'HttpOnly', 'SameSite=Strict', ...(overTls(request, trustProxy) ? ['Secure'] : [])];
  reply.header('set-cookie', `${SESSION_COOKIE}=${token}; ${attributes.join('; ')}`);
}

export function clearSessionCookie(reply: FastifyReply, request: FastifyRequest, trustProxy: boolean): void {
  const attributes = ['Path=/', 'HttpOnly', 'SameSite=Strict', 'Max-Age=0', ...(overTls(request, trustProxy) ? ['Secure'] : [])];
  reply.header('set-cookie', `${SESSION_COOKIE}=; ${attributes.join('; ')}`);
}

/** Console sign-in settings (docs/console-access.md), from the environment as EnvSchema reads it. */
import type { OidcConfig } from '../http/auth/oidc.ts';
import type { Env } from './env-schema.ts';

export interface ConsoleConfig {
  /** COVERAGE_CONSOLE_IDLE_MINUTES: sign-out after this long without a request (default 15). */
  idleMs: number;
  /** COVERAGE_CONSOLE_SESSION_HOURS: a session's absolute lifetime (default 12). */
  lifetimeMs: number;
  /** COVERAGE_CONSOLE_MAX_FAILURES: failed sign-ins in a row that lock an account (default 5). */
  maxFailures: number;
  /** COVERAGE_CONSOLE_LOCKOUT_MINUTES: how long the lock lasts (default 15). */
  lockoutMs: number;
  /** COVERAGE_CONSOLE_SIGN_INS_PER_MINUTE: sign-in attempts per client address per minute (default 20). */
  signInsPerMinute: number;
  /** COVERAGE_CONSOLE_SIGN_INS_PER_USER_PER_MINUTE: sign-in attempts per username per minute (default 10). */
  signInsPerUserPerMinute: number;
  /** COVERAGE_CONSOLE_HASHES_AT_ONCE: password hashes at once (default 2), below UV_THREADPOOL_SIZE. */
  hashesAtOnce: number;
  /** COVERAGE_CONSOLE_HASH_QUEUE: sign-ins that may wait for a hash (default 8). */
  hashQueue: number;
  /** COVERAGE_TRUST_PROXY: believe X-Forwarded-Proto (session cookies get Secure behind a TLS proxy). */
  trustProxy: boolean;
  /** COVERAGE_OIDC_*: sign-in through the organization's identity provider; null when not configured. */
  oidc: OidcConfig | null;
}

/** Cross-variable: an issuer needs its client and redirect address, and that address the console's callback path. */
function oidcConfig(env: Env): OidcConfig | null {
  const issuer = env.COVERAGE_OIDC_ISSUER;
  if (!issuer) return null;
  const { COVERAGE_OIDC_CLIENT_ID: clientId, COVERAGE_OIDC_CLIENT_SECRET: clientSecret, COVERAGE_OIDC_REDIRECT_URI: redirectUri } = env;
  if (!clientId || !clientSecret || !redirectUri) {
    const missing = Object.entries({ COVERAGE_OIDC_CLIENT_ID: clientId, COVERAGE_OIDC_CLIENT_SECRET: clientSecret, COVERAGE_OIDC_REDIRECT_URI: redirectUri })
      .filter(([, value]) => !value)
      .map(([name]) => name);
    throw new Error(`COVERAGE_OIDC_ISSUER is set: set ${missing.join(', ')} too`);
  }
  const redirect = new URL(redirectUri);
  if (redirect.pathname !== '/console/oidc/callback') throw new Error('COVERAGE_OIDC_REDIRECT_URI must end in /console/oidc/callback');
  return {
    issuer,
    clientId,
    clientSecret,
    redirectUri: redirect.toString(),
    usernameClaim: env.COVERAGE_OIDC_USERNAME_CLAIM,
    label: env.COVERAGE_OIDC_LABEL,
  };
}

export function consoleConfig(env: Env): ConsoleConfig {
  const trust = (env.COVERAGE_TRUST_PROXY ?? '').trim().toLowerCase();
  // The threads left over serve file reads and DNS while sign-ins hash (docs/security.md, "Sign-ins and the thread pool").
  if (env.COVERAGE_CONSOLE_HASHES_AT_ONCE >= env.UV_THREADPOOL_SIZE) {
    throw new Error(
      `COVERAGE_CONSOLE_HASHES_AT_ONCE (${env.COVERAGE_CONSOLE_HASHES_AT_ONCE}) must be below UV_THREADPOOL_SIZE ` +
        `(${env.UV_THREADPOOL_SIZE}): password hashes would take every thread file reads and DNS need`,
    );
  }
  return {
    idleMs: env.COVERAGE_CONSOLE_IDLE_MINUTES * 60_000,
    lifetimeMs: env.COVERAGE_CONSOLE_SESSION_HOURS * 3_600_000,
    maxFailures: env.COVERAGE_CONSOLE_MAX_FAILURES,
    lockoutMs: env.COVERAGE_CONSOLE_LOCKOUT_MINUTES * 60_000,
    signInsPerMinute: env.COVERAGE_CONSOLE_SIGN_INS_PER_MINUTE,
    signInsPerUserPerMinute: env.COVERAGE_CONSOLE_SIGN_INS_PER_USER_PER_MINUTE,
    hashesAtOnce: env.COVERAGE_CONSOLE_HASHES_AT_ONCE,
    hashQueue: env.COVERAGE_CONSOLE_HASH_QUEUE,
    trustProxy: trust !== '' && trust !== '0' && trust !== 'false' && trust !== 'no',
    oidc: oidcConfig(env),
  };
}

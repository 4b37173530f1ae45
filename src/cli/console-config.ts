/** Console sign-in settings from environment variables (docs/console-access.md). */
import type { OidcConfig } from '../http/oidc.ts';

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
  /** COVERAGE_TRUST_PROXY: believe X-Forwarded-Proto (session cookies get Secure behind a TLS proxy). */
  trustProxy: boolean;
  /** COVERAGE_OIDC_*: sign-in through the organization's identity provider; null when not configured. */
  oidc: OidcConfig | null;
}

function oidcConfig(env: NodeJS.ProcessEnv): OidcConfig | null {
  const issuer = env.COVERAGE_OIDC_ISSUER || undefined;
  if (!issuer) return null;
  const missing = ['COVERAGE_OIDC_CLIENT_ID', 'COVERAGE_OIDC_CLIENT_SECRET', 'COVERAGE_OIDC_REDIRECT_URI'].filter((name) => !env[name]);
  if (missing.length) throw new Error(`COVERAGE_OIDC_ISSUER is set: set ${missing.join(', ')} too`);
  const redirect = new URL(env.COVERAGE_OIDC_REDIRECT_URI!);
  if (redirect.pathname !== '/console/oidc/callback') throw new Error('COVERAGE_OIDC_REDIRECT_URI must end in /console/oidc/callback');
  return {
    issuer,
    clientId: env.COVERAGE_OIDC_CLIENT_ID!,
    clientSecret: env.COVERAGE_OIDC_CLIENT_SECRET!,
    redirectUri: redirect.toString(),
    usernameClaim: env.COVERAGE_OIDC_USERNAME_CLAIM || 'email',
    label: env.COVERAGE_OIDC_LABEL || 'Sign in with your organization account',
  };
}

function int(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
  return n;
}

export function loadConsoleConfig(env: NodeJS.ProcessEnv): ConsoleConfig {
  const trust = (env.COVERAGE_TRUST_PROXY ?? '').trim().toLowerCase();
  return {
    idleMs: int('COVERAGE_CONSOLE_IDLE_MINUTES', env.COVERAGE_CONSOLE_IDLE_MINUTES, 15, 1, 240) * 60_000,
    lifetimeMs: int('COVERAGE_CONSOLE_SESSION_HOURS', env.COVERAGE_CONSOLE_SESSION_HOURS, 12, 1, 24) * 3_600_000,
    maxFailures: int('COVERAGE_CONSOLE_MAX_FAILURES', env.COVERAGE_CONSOLE_MAX_FAILURES, 5, 1, 100),
    lockoutMs: int('COVERAGE_CONSOLE_LOCKOUT_MINUTES', env.COVERAGE_CONSOLE_LOCKOUT_MINUTES, 15, 1, 1440) * 60_000,
    signInsPerMinute: int('COVERAGE_CONSOLE_SIGN_INS_PER_MINUTE', env.COVERAGE_CONSOLE_SIGN_INS_PER_MINUTE, 20, 1, 100_000),
    trustProxy: trust !== '' && trust !== '0' && trust !== 'false' && trust !== 'no',
    oidc: oidcConfig(env),
  };
}

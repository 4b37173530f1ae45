/**
 * Every environment variable the `coverage` command reads, declared once: its type and accepted
 * values, default, the mode it applies to and the README's words for it. env.ts checks a process's
 * environment against it; scripts/config-table.ts writes the README's configuration table from it.
 *
 * Annotations beside the JSON Schema keywords (ajv knows them as keywords that check nothing):
 *   x-mode          where it applies: any mode, sandbox, production, or the client commands (`check`, `batch`)
 *   x-default-text  the default in words, when it is not a fixed value (computed, generated)
 *   x-expected      what a refused value should have been, in the refusal's words
 *   x-secret        a refusal gives the value's length, never the value
 */
import { Type, type Static } from 'typebox';

export type EnvMode = 'any' | 'sandbox' | 'production' | 'client';

interface Meta {
  description: string;
  mode?: EnvMode;
  defaultText?: string;
}

const annotations = ({ description, mode = 'any', defaultText }: Meta) => ({
  description,
  'x-mode': mode,
  ...(defaultText ? { 'x-default-text': defaultText } : {}),
});

/** An integer from min to max; empty or unset takes the default (none: the loader computes one). */
function int(min: number, max: number, fallback: number, meta: Meta) {
  return Type.Integer({ minimum: min, maximum: max, default: fallback, ...annotations(meta) });
}

function text(meta: Meta & { default?: string }) {
  return meta.default === undefined ? Type.Optional(Type.String(annotations(meta))) : Type.String({ default: meta.default, ...annotations(meta) });
}

/** One of a closed list. Unlike the other variables, an empty value is refused rather than read as unset. */
function choice<const V extends string>(values: readonly [V, ...V[]], fallback: V, meta: Meta) {
  return Type.Enum([...values], { default: fallback, ...annotations(meta) });
}

/** `1`/`true` or `0`/`false`. */
function flag(fallback: '0' | '1', meta: Meta) {
  return Type.String({ pattern: '^(0|1|true|false)$', default: fallback, 'x-expected': '1 or 0', ...annotations(meta) });
}

/** A credential: its own shape, and refusals that never repeat it. */
function secret(shape: { minLength?: number; pattern: string; expected: string }, meta: Meta) {
  const { expected, ...keywords } = shape;
  return Type.Optional(Type.String({ ...keywords, 'x-expected': expected, 'x-secret': true, ...annotations(meta) }));
}

const Server = {
  PORT: int(0, 65_535, 8080, { description: 'port to listen on' }),
  HOST: text({ default: '127.0.0.1', description: 'address to bind (`0.0.0.0` in a container)' }),
  COVERAGE_DATA_DIR: text({ default: './data', description: 'where the embedded SQLite store lives' }),
  COVERAGE_MODE: choice(['sandbox', 'production'], 'sandbox', { description: '`sandbox` (the simulated network) or `production` (real payers)' }),
  COVERAGE_DEV_KEY: secret(
    {
      // As long as a generated key's random part; config.ts also wants 8 different characters.
      minLength: 32,
      pattern: '^\\S+$',
      expected: 'at least 32 characters without spaces (or unset, to have a key generated at each start)',
    },
    {
      mode: 'sandbox',
      defaultText: 'generated per start',
      description:
        'sandbox only (production refuses to start with it): a sandbox API key of at least 32 characters (at least ' +
        '8 different ones) registered at start, stored hashed like every key and never printed; once revoked it is ' +
        'refused at the next start. Without it a sandbox server makes a fresh key each start and prints it once',
    },
  ),
  LOG_LEVEL: text({ default: 'info', description: 'pino level; logs never contain member names, IDs or DOBs' }),
  DATABASE_URL: text({ description: 'PostgreSQL instead of SQLite' }),
  REDIS_URL: text({ description: 'Redis for shared rate limits and the coverage cache' }),
  COVERAGE_PAYER_TIMEOUT_MS: int(100, 120_000, 20_000, { description: 'deadline for one payer exchange' }),
  COVERAGE_SCAN_TIMEOUT_MS: int(100, 120_000, 25_000, { description: 'deadline for a whole scan' }),
  COVERAGE_SESSION_COST_FLOOR_CENTS: int(0, 999_999_999, 1000, {
    description:
      'an estimate whose `provider_session_cost` (cents) is below this gets a `SESSION_COST_LOW` alert: 150 is $1.50, ' +
      'most likely dollars sent as cents ([docs/estimates.md](docs/estimates.md#session-cost)); 0 turns it off',
  }),
  COVERAGE_AUDIT_KEY: text({ defaultText: 'generated once, kept in the store', description: 'HMAC key for the member hash in audit records' }),
  COVERAGE_DATA_KEY: secret(
    { pattern: '^[0-9a-fA-F]{64}$', expected: '64 hexadecimal characters (32 bytes), such as the output of `openssl rand -hex 32`' },
    {
      description:
        '64 hex characters (`openssl rand -hex 32`, the same on every instance): encrypts the coverage cache and batch ' +
        "rows at rest (AES-256-GCM), users' TOTP secrets, and monitors' snapshots, events and webhook secrets, and " +
        'names cache entries by keyed hash. Required in production: a production server does not start without it. A ' +
        'sandbox without it keeps batch rows and monitors plain, and its in-memory cache uses a key made per process',
    },
  ),
  COVERAGE_MAX_EVENT_LOOP_DELAY_MS: int(0, 60_000, 1_000, {
    description: 'mean event-loop delay past which requests get `503 SERVICE_UNAVAILABLE` with `Retry-After` (not `/healthz`, `/metrics`); 0 turns it off',
  }),
  COVERAGE_MAX_HEAP_USED_MB: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 1_000_000,
      ...annotations({ defaultText: '90 % of the V8 heap limit', description: 'heap in use past which requests are shed the same way; 0 turns it off' }),
    }),
  ),
  COVERAGE_OVERLOAD_RETRY_AFTER_S: int(1, 3_600, 5, { description: 'the `Retry-After` of a shed request' }),
  COVERAGE_REQUEST_TIMEOUT_MS: int(100, 600_000, 30_000, {
    description:
      'time a client has to send a whole request, headers and body; a slower client gets ' +
      '408 and is disconnected (how long the service takes to answer does not count)',
  }),
  COVERAGE_PAYERS: text({ mode: 'production', description: 'the payer directory file ([docs/payer-directory.md](docs/payer-directory.md))' }),
  COVERAGE_CACHE_TTL_MS: int(0, 3_600_000, 300_000, { mode: 'production', description: 'how long a coverage answer is reused (0 turns the cache off)' }),
  COVERAGE_HEAP: choice(['fast', 'small'], 'fast', {
    description:
      "how V8 sizes the heap: `fast` keeps V8's defaults (the least CPU; 185–250 MB at 500 connections); `small` (V8's " +
      'optimize-for-size) stays near 145 MB there for more CPU per request ([docs/operating.md](docs/operating.md#memory))',
  }),
  COVERAGE_METRICS_TOKEN: secret(
    { minLength: 32, pattern: '^\\S+$', expected: 'at least 32 characters without spaces (e.g. `openssl rand -hex 32`)' },
    { description: 'when set (32+ characters), `GET /metrics` wants `Authorization: Bearer <token>`' },
  ),
};

/** docs/batch.md */
const Batch = {
  COVERAGE_BATCH_CONCURRENCY: int(1, 256, 16, { description: 'batch rows one instance checks at once ([docs/batch.md](docs/batch.md))' }),
  COVERAGE_BATCH_PER_PAYER: int(1, 64, 4, { description: "batch rows of one payer one instance checks at once (below a payer connection's own limit, 10)" }),
  COVERAGE_BATCH_MAX_QUEUED_ROWS: int(1, 10_000_000, 50_000, { description: 'rows a key may have waiting or running' }),
  COVERAGE_BATCH_LEASE_MS: int(200, 3_600_000, 60_000, { description: 'how long a claim holds without renewal' }),
  COVERAGE_BATCH_POLL_MS: int(10, 60_000, 1_000, {
    description: 'how often an instance looks for rows queued elsewhere, for expired leases, and for rows of revoked keys to cancel',
  }),
  COVERAGE_BATCH_RETENTION_DAYS: int(0, 3650, 7, { description: 'days a batch and its results are kept; `0` keeps them' }),
  COVERAGE_BATCH_CREATE_PER_MINUTE: int(1, 100_000, 20, {
    description: 'batches one key may create per minute (`POST /v1/batches`, refused uploads included)',
  }),
};

/** docs/remittances.md */
const Remittances = {
  COVERAGE_ESTIMATE_RETENTION_DAYS: int(1, 3650, 180, {
    description: 'days an answered estimate is kept (sealed) to be compared with the remittance that pays it ([docs/remittances.md](docs/remittances.md))',
  }),
  COVERAGE_REMITTANCE_RETENTION_DAYS: int(1, 3650, 365, {
    description:
      'days a remittance received is kept (its sealed answer, its lines in the accuracy report and the desk advisory, its claims ' +
      'for reversals), then purged by the sweep that drops expired estimates ([docs/remittances.md](docs/remittances.md))',
  }),
};

/** docs/monitoring.md */
const Monitors = {
  COVERAGE_MONITOR_WINDOW: Type.Optional(
    Type.String({
      // Blank is unset; the hours are checked again, with start != end, by parseCheckWindow.
      pattern: '^\\s*(([01]\\d|2[0-3]):[0-5]\\d-([01]\\d|2[0-3]):[0-5]\\d)?\\s*$',
      'x-expected': 'HH:MM-HH:MM in UTC, such as 22:00-06:00',
      ...annotations({
        description: "`HH:MM-HH:MM` in UTC: monitors' scheduled checks only while it is open ([docs/monitoring.md](docs/monitoring.md))",
      }),
    }),
  ),
  COVERAGE_MONITOR_PAYER_INTERVAL_MS: int(0, 3_600_000, 1_000, {
    description: 'least time between two scheduled checks to one payer, across instances; `0` paces none',
  }),
  COVERAGE_MONITOR_CONCURRENCY: int(1, 64, 4, { description: 'scheduled checks one instance makes at once' }),
  COVERAGE_MONITOR_POLL_MS: int(10, 60_000, 1_000, { description: 'how often an instance looks for due checks' }),
  COVERAGE_MONITOR_LEASE_MS: int(200, 3_600_000, 60_000, { description: 'how long a claimed check is held before another instance may take it' }),
  COVERAGE_MONITOR_MAX_PER_KEY: int(1, 1_000_000, 10_000, {
    description: 'monitors one owner may have; counted and created in one transaction, and a key at the limit is refused before its upload is read',
  }),
  COVERAGE_MONITOR_BULK_PER_MINUTE: int(1, 100_000, 10, {
    description: '`POST /v1/monitors/bulk` uploads one key may make a minute, counted before the body is read; past it `429` with `Retry-After`',
  }),
  COVERAGE_WEBHOOK_DELIVERY: flag('1', { description: '`0`: this instance queues events but sends none (others sharing the store send them)' }),
  COVERAGE_WEBHOOK_ALLOW_INSECURE: flag('0', { description: '`1` lets webhooks use `http` and loopback receivers (development and tests only)' }),
  COVERAGE_WEBHOOK_TIMEOUT_MS: int(100, 60_000, 10_000, { description: "one delivery attempt's limit" }),
  COVERAGE_WEBHOOK_RETRY_BASE_MS: int(10, 3_600_000, 30_000, { description: "the first retry's wait; each next doubles (with jitter), up to 6 h, for 24 h" }),
  COVERAGE_WEBHOOK_POLL_MS: int(10, 60_000, 1_000, { description: 'how often an instance looks for due deliveries' }),
  COVERAGE_WEBHOOK_CONCURRENCY: int(1, 64, 8, { description: 'deliveries one instance sends at once' }),
};

/** docs/console-access.md */
const Console = {
  COVERAGE_CONSOLE_IDLE_MINUTES: int(1, 240, 15, {
    description: 'console sign-out after this long without a request ([docs/console-access.md](docs/console-access.md))',
  }),
  COVERAGE_CONSOLE_SESSION_HOURS: int(1, 24, 12, { description: "a console session's absolute lifetime, whatever the activity" }),
  COVERAGE_CONSOLE_MAX_FAILURES: int(1, 100, 5, { description: 'failed sign-ins in a row that lock an account' }),
  COVERAGE_CONSOLE_LOCKOUT_MINUTES: int(1, 1440, 15, { description: 'how long the lock lasts' }),
  COVERAGE_CONSOLE_SIGN_INS_PER_MINUTE: int(1, 100_000, 20, { description: 'sign-in attempts per client address per minute' }),
  COVERAGE_CONSOLE_SIGN_INS_PER_USER_PER_MINUTE: int(1, 100_000, 10, {
    description: 'sign-in attempts per username per minute, from any address; past it `429` with `Retry-After`',
  }),
  COVERAGE_CONSOLE_HASHES_AT_ONCE: int(1, 1023, 2, {
    description:
      'password hashes (argon2id, 64 MiB each) one instance computes at once; below `UV_THREADPOOL_SIZE`, so static ' +
      'files and DNS never wait behind sign-ins ([docs/security.md](docs/security.md#sign-ins-and-the-thread-pool))',
  }),
  COVERAGE_CONSOLE_HASH_QUEUE: int(0, 10_000, 8, { description: 'sign-ins that may wait for a password hash; past it `429` with `Retry-After`' }),
  UV_THREADPOOL_SIZE: int(2, 1024, 4, {
    description: "Node's thread pool (read by Node itself): file reads, DNS and password hashes share it; must be above `COVERAGE_CONSOLE_HASHES_AT_ONCE`",
  }),
  COVERAGE_TRUST_PROXY: text({
    description: '`1` behind a TLS-terminating proxy: believe `X-Forwarded-Proto` so console cookies get `Secure` (empty, `0`, `false` or `no`: off)',
  }),
  COVERAGE_OIDC_ISSUER: text({
    description:
      'console sign-in through Google Workspace or Microsoft Entra: the provider (then ' +
      '`COVERAGE_OIDC_CLIENT_ID`, `_CLIENT_SECRET` and `_REDIRECT_URI` are required too)',
  }),
  COVERAGE_OIDC_CLIENT_ID: text({ description: 'from the OAuth client or app registration' }),
  COVERAGE_OIDC_CLIENT_SECRET: text({ description: 'from the OAuth client or app registration' }),
  COVERAGE_OIDC_REDIRECT_URI: text({ description: '`https://YOUR-HOST/console/oidc/callback`, registered at the provider exactly so' }),
  COVERAGE_OIDC_USERNAME_CLAIM: text({
    default: 'email',
    description: 'the ID token claim that names the user (`email` only with `email_verified: true`; `preferred_username` for Entra)',
  }),
  COVERAGE_OIDC_LABEL: text({ default: 'Sign in with your organization account', description: "the sign-in button's words" }),
};

/** `coverage check`, `coverage batch` and `coverage remit`, which call a running service. */
const Client = {
  COVERAGE_URL: text({
    mode: 'client',
    default: 'http://localhost:8080',
    description: 'the service `coverage check`, `coverage batch` and `coverage remit` call',
  }),
  COVERAGE_API_KEY: text({ mode: 'client', description: 'the API key they call it with (a sandbox server prints its dev key when it starts)' }),
};

export const EnvSchema = Type.Object({ ...Server, ...Batch, ...Remittances, ...Monitors, ...Console, ...Client });

/** The environment once checked: numbers are numbers, and every variable with a default has it. */
export type Env = Static<typeof EnvSchema>;
export type EnvName = keyof Env;

/** One variable's schema, its annotations included. */
export function envSchemaOf(name: EnvName): Readonly<Record<string, unknown>> {
  return EnvSchema.properties[name] as unknown as Record<string, unknown>;
}

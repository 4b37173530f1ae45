/**
 * Connections of the payer directory: how this service reaches payers (a clearinghouse account or a
 * CORE endpoint), with that connection's own limits. Secrets are named by environment variable only.
 * Documented in docs/payer-directory.md.
 */
import { Type, type Static } from 'typebox';

export const EnvName = Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$', maxLength: 120 });
/** CORE SenderID/ReceiverID and the 270's ISA06/ISA08 (GS02/GS03): X12 caps interchange IDs at 15 characters. */
export const InterchangeId = Type.String({ minLength: 2, maxLength: 15, pattern: '^[A-Za-z0-9][A-Za-z0-9 ._-]*$' });
const Url = Type.String({ pattern: '^https?://[^\\s]+$' });

export const RetrySettings = Type.Object(
  {
    max_attempts: Type.Integer({ minimum: 0, maximum: 5 }),
    initial_delay_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  },
  { additionalProperties: false },
);

export const BreakerSettings = Type.Object(
  {
    consecutive_failures: Type.Integer({ minimum: 1, maximum: 1000 }),
    half_open_after_ms: Type.Integer({ minimum: 10, maximum: 3_600_000 }),
  },
  { additionalProperties: false },
);

/** How fast, how long and how resiliently exchanges go: a connection's, or one payer's own. */
export const EXCHANGE_LIMITS = {
  rate_limit_per_second: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 10_000 })),
  timeout_ms: Type.Optional(Type.Integer({ minimum: 50, maximum: 120_000 })),
  retry: Type.Optional(RetrySettings),
  circuit_breaker: Type.Optional(BreakerSettings),
};

/** EQ01 service type codes (X12 code list 1365): one or two letters or digits. */
const ServiceTypeCode = Type.String({ pattern: '^[0-9A-Z]{1,2}$' });

/**
 * The service types an estimate asks this way (docs/going-live.md, "Service types"): each entry is one
 * 270's EQ list; a later entry is sent only when the answer before it holds no behavioral-health
 * detail (no benefit for MH, CF, A4, A6, A7, A8 or AI). Default DEFAULT_SERVICE_TYPES.
 */
export const ServiceTypePlan = Type.Array(Type.Array(ServiceTypeCode, { minItems: 1, maxItems: 12 }), { minItems: 1, maxItems: 4 });
export type ServiceTypePlan = Static<typeof ServiceTypePlan>;

/**
 * One service type per request (many payers reject or ignore several in one 270): MH (Mental Health),
 * the code for behavioral health, then 30 (Health Benefit Plan Coverage), which every payer answers,
 * when the MH answer says nothing of behavioral health.
 */
export const DEFAULT_SERVICE_TYPES: ServiceTypePlan = [['MH'], ['30']];

const IpAddress = Type.String({ pattern: '^(\\d{1,3}(\\.\\d{1,3}){3}|[0-9A-Fa-f:.]{2,45})$' });

export const CONNECTION_KINDS = ['stedi', 'optum', 'availity', 'core-soap', 'core-mime'] as const;
export type ConnectionKind = (typeof CONNECTION_KINDS)[number];

export const DirectoryConnection = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 80, pattern: '^[A-Za-z0-9._-]+$' }),
    kind: Type.Union([Type.Literal('stedi'), Type.Literal('optum'), Type.Literal('availity'), Type.Literal('core-soap'), Type.Literal('core-mime')]),
    /** stedi, optum, availity: the API base (e.g. https://healthcare.us.stedi.com/2024-04-01). */
    base_url: Type.Optional(Url),
    /** core-soap, core-mime: the URL the CORE envelope is POSTed to. */
    endpoint: Type.Optional(Url),
    /** ISA08/GS03 (and the CORE ReceiverID) of this connection's 270s; default: the route's payer ID. */
    receiver_id: Type.Optional(InterchangeId),
    /** ISA15 T (test data) instead of P. */
    test: Type.Optional(Type.Boolean()),
    /** stedi: raw X12 (default) or the JSON endpoint. optum: JSON v3 (default) or raw X12 (needs enablement). */
    format: Type.Optional(Type.Union([Type.Literal('x12'), Type.Literal('json')])),
    api_key_env: Type.Optional(EnvName),
    client_id_env: Type.Optional(EnvName),
    client_secret_env: Type.Optional(EnvName),
    username_env: Type.Optional(EnvName),
    password_env: Type.Optional(EnvName),
    /** OAuth2 token URL (optum, availity); default from the vendor's documented path under base_url's origin. */
    token_url: Type.Optional(Url),
    scope: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    /** availity: first wait before polling a 202 (later waits 2x, 5x, 20x it, as Availity's SDK does); default 1000. */
    poll_initial_ms: Type.Optional(Type.Integer({ minimum: 10, maximum: 60_000 })),
    /** Service types per inquiry for every route of this connection (a route may set its own). */
    service_types: Type.Optional(ServiceTypePlan),
    /**
     * stedi: send X-Forwarded-For on checks to these route payer IDs (CMS requires the caller's network
     * addresses, origin first; `proxies` are appended after the caller's chain). docs/going-live.md.
     */
    forwarded_for: Type.Optional(
      Type.Object(
        {
          payer_ids: Type.Array(Type.String({ minLength: 1, maxLength: 80, pattern: '^[A-Za-z0-9._ -]+$' }), { minItems: 1, maxItems: 50 }),
          proxies: Type.Optional(Type.Array(IpAddress, { maxItems: 10 })),
        },
        { additionalProperties: false },
      ),
    ),
    max_in_flight: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    ...EXCHANGE_LIMITS,
  },
  { additionalProperties: false },
);
export type DirectoryConnection = Static<typeof DirectoryConnection>;

/** Which fields each kind needs: the URL and the environment variables holding its secrets. */
const NEEDS: Record<ConnectionKind, { url: 'base_url' | 'endpoint'; secrets: (keyof DirectoryConnection)[] }> = {
  stedi: { url: 'base_url', secrets: ['api_key_env'] },
  optum: { url: 'base_url', secrets: ['client_id_env', 'client_secret_env'] },
  availity: { url: 'base_url', secrets: ['client_id_env', 'client_secret_env', 'scope'] },
  'core-soap': { url: 'endpoint', secrets: [] },
  'core-mime': { url: 'endpoint', secrets: [] },
};

/** A problem with one connection's fields, or null. */
export function connectionProblem(c: DirectoryConnection): string | null {
  const need = NEEDS[c.kind];
  if (!c[need.url]) return `connection ${c.name} (${c.kind}) needs ${need.url}`;
  const missing = need.secrets.filter((s) => !c[s]);
  if (missing.length > 0) return `connection ${c.name} (${c.kind}) needs ${missing.join(' and ')}`;
  if ((c.username_env === undefined) !== (c.password_env === undefined)) return `connection ${c.name} needs both username_env and password_env, or neither`;
  if (c.format === 'json' && c.kind !== 'stedi' && c.kind !== 'optum') return `connection ${c.name}: format applies to stedi and optum only`;
  if (c.forwarded_for && c.kind !== 'stedi') return `connection ${c.name}: forwarded_for applies to stedi only`;
  if (c.token_url && c.base_url && new URL(c.token_url).origin !== new URL(c.base_url).origin)
    return `connection ${c.name}: token_url must be on base_url's host (one connection pool)`;
  return null;
}

/** Stedi's documented default: 5 real-time checks in flight per account; a sixth gets 429. */
export const DEFAULT_MAX_IN_FLIGHT: Partial<Record<ConnectionKind, number>> = { stedi: 5 };

/** The environment variables a connection reads its secrets from. */
export function secretEnvNames(c: DirectoryConnection): string[] {
  return [c.api_key_env, c.client_id_env, c.client_secret_env, c.username_env, c.password_env].filter((v): v is string => v !== undefined);
}

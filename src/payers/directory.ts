/**
 * The payer directory (COVERAGE_PAYERS): which payers production mode talks to, through which
 * connections (a clearinghouse account or a CORE endpoint), and within which limits. Two shapes are
 * read: the original one (each payer with its own `endpoint`/`protocol`, top-level `sender_id`) and
 * the one with `submitter`, `connections` and per-payer `routes`; the first is translated into one
 * CORE connection per payer, named by its payer_id. Schema documented in docs/payer-directory.md.
 */
import { readFileSync } from 'node:fs';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { DirectoryConnection, EnvName, EXCHANGE_LIMITS, InterchangeId, ServiceTypePlan, connectionProblem } from './connections.ts';
import { NUCC_TAXONOMY } from '../domain/formats.ts';
import type { Eligibility } from '../domain/payer-ids.ts';
import type { PayerInfo } from './network.ts';

const PayerIdString = Type.String({ minLength: 1, maxLength: 80, pattern: '^[A-Za-z0-9._-]+$' });
/** A connection's own payer ID (Stedi's `60054`, Availity's `AETNA`...): what goes in 2100A NM109. */
const RoutePayerId = Type.String({ minLength: 1, maxLength: 80, pattern: '^[A-Za-z0-9._ -]+$' });

export const PayerRoute = Type.Object(
  {
    connection: Type.String({ minLength: 1, maxLength: 80 }),
    payer_id: RoutePayerId,
    /** This payer's service types through this connection, over the connection's (docs/payer-directory.md). */
    service_types: Type.Optional(ServiceTypePlan),
  },
  { additionalProperties: false },
);

export const DirectoryPayer = Type.Object(
  {
    payer_id: PayerIdString,
    name: Type.String({ minLength: 1, maxLength: 120 }),
    /** Other IDs callers may send for this payer (an EHR's or a clearinghouse's). */
    aliases: Type.Optional(Type.Array(RoutePayerId, { maxItems: 50 })),
    /** Connections to try in order; a route that fails as a route hands over to the next. */
    routes: Type.Optional(Type.Array(PayerRoute, { minItems: 1, maxItems: 10 })),
    endpoint: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$', description: 'URL the CORE envelope is POSTed to' })),
    protocol: Type.Optional(Type.Union([Type.Literal('core-soap'), Type.Literal('core-mime')])),
    receiver_id: Type.Optional(InterchangeId),
    credentials: Type.Optional(Type.Object({ username_env: EnvName, password_env: EnvName }, { additionalProperties: false })),
    supports_search: Type.Boolean(),
    medicaid_state: Type.Optional(Type.Union([Type.String({ pattern: '^[A-Z]{2}$' }), Type.Null()])),
    carve_out_administrators: Type.Optional(Type.Array(PayerIdString)),
    /** The order of the office visit (98) and plan (30) cost shares when no behavioral-health one is stated (docs/estimates.md 1.1, "Fallback order"). */
    cost_share_fallback: Type.Optional(Type.Union([Type.Literal('98-then-30'), Type.Literal('30-then-98')])),
    max_concurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    ...EXCHANGE_LIMITS,
  },
  { additionalProperties: false },
);

/** A provider of the practice: the 2100B name a 270 carries when the request names none. */
export const DirectoryProvider = Type.Object(
  {
    npi: Type.String({ pattern: '^[0-9]{10}$' }),
    /** A person (NM102 1) ... */
    first_name: Type.Optional(Type.String({ minLength: 1, maxLength: 35 })),
    last_name: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
    /** ... or an organization (NM102 2). */
    organization_name: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
    /** NUCC taxonomy code: 2100B PRV*PE*PXC of every 270 sent for this NPI. */
    taxonomy: Type.Optional(Type.String({ pattern: NUCC_TAXONOMY.source })),
  },
  { additionalProperties: false },
);
export type DirectoryProvider = Static<typeof DirectoryProvider>;

export const Submitter = Type.Object(
  {
    /** ISA06/GS02 of every 270 and the CORE SenderID. */
    id: InterchangeId,
    /** The practice's name, for the operator and the vendors' enrollment. */
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
  },
  { additionalProperties: false },
);

export const PayerDirectory = Type.Object(
  {
    /** The original shape's CORE SenderID (ISA06/GS02); `submitter.id` in the new one. */
    sender_id: Type.Optional(InterchangeId),
    submitter: Type.Optional(Submitter),
    connections: Type.Optional(Type.Array(DirectoryConnection, { maxItems: 100 })),
    /** The practice's providers by NPI: the name 2100B carries when a request gives only an NPI. */
    providers: Type.Optional(Type.Array(DirectoryProvider, { maxItems: 10_000 })),
    payers: Type.Array(DirectoryPayer),
  },
  { additionalProperties: false },
);

export type DirectoryPayer = Static<typeof DirectoryPayer>;
export type PayerDirectory = Static<typeof PayerDirectory>;
export type PayerRoute = Static<typeof PayerRoute>;

export interface ResolvedPayer {
  info: PayerInfo;
  aliases: string[];
  /** eligibility: what the imported catalog says of the payer at that connection; not_supported routes are not tried. */
  routes: (PayerRoute & { eligibility?: Eligibility })[];
}

/** The directory as the network uses it, whichever shape it was written in. */
export interface ResolvedDirectory {
  submitter: { id: string; name: string | null };
  connections: DirectoryConnection[];
  providers: Map<string, DirectoryProvider>;
  payers: ResolvedPayer[];
}

/** A payer of the original shape becomes a CORE connection of its own, named by its payer_id. */
function legacyConnection(p: DirectoryPayer): DirectoryConnection {
  return {
    name: p.payer_id,
    kind: p.protocol!,
    endpoint: p.endpoint!,
    ...(p.receiver_id !== undefined ? { receiver_id: p.receiver_id } : {}),
    ...(p.credentials ? { username_env: p.credentials.username_env, password_env: p.credentials.password_env } : {}),
    ...(p.max_concurrency !== undefined ? { max_in_flight: p.max_concurrency } : {}),
    ...(p.rate_limit_per_second !== undefined ? { rate_limit_per_second: p.rate_limit_per_second } : {}),
    ...(p.timeout_ms !== undefined ? { timeout_ms: p.timeout_ms } : {}),
    ...(p.retry ? { retry: p.retry } : {}),
    ...(p.circuit_breaker ? { circuit_breaker: p.circuit_breaker } : {}),
  };
}

const LEGACY_ONLY = [
  'endpoint',
  'protocol',
  'receiver_id',
  'credentials',
  'max_concurrency',
  'rate_limit_per_second',
  'timeout_ms',
  'retry',
  'circuit_breaker',
] as const;

export function resolveDirectory(d: PayerDirectory, source = 'payer directory'): ResolvedDirectory {
  const senderId = d.submitter?.id ?? d.sender_id;
  if (senderId === undefined) throw new Error(`${source} needs submitter.id (or sender_id)`);
  if (d.submitter && d.sender_id !== undefined && d.submitter.id !== d.sender_id) throw new Error(`${source}: sender_id and submitter.id disagree`);
  const connections = new Map<string, DirectoryConnection>();
  for (const c of d.connections ?? []) {
    if (connections.has(c.name)) throw new Error(`${source} lists connection ${c.name} twice`);
    const problem = connectionProblem(c);
    if (problem) throw new Error(`${source}: ${problem}`);
    connections.set(c.name, c);
  }
  const providers = new Map<string, DirectoryProvider>();
  for (const p of d.providers ?? []) {
    if (providers.has(p.npi)) throw new Error(`${source} lists provider ${p.npi} twice`);
    if (!p.organization_name && !p.last_name) throw new Error(`${source}: provider ${p.npi} needs organization_name or last_name`);
    if (p.organization_name && (p.first_name || p.last_name))
      throw new Error(`${source}: provider ${p.npi} is a person (first_name, last_name) or an organization (organization_name), not both`);
    providers.set(p.npi, p);
  }
  const payers: ResolvedPayer[] = [];
  const ids = new Map<string, string>();
  const claim = (id: string, owner: string) => {
    const key = id.toUpperCase();
    const other = ids.get(key);
    if (other !== undefined)
      throw new Error(other === owner ? `${source} lists payer ${id} twice` : `${source}: ${id} names both payer ${other} and payer ${owner}`);
    ids.set(key, owner);
  };
  for (const p of d.payers) {
    claim(p.payer_id, p.payer_id);
    for (const a of new Set((p.aliases ?? []).filter((a) => a.toUpperCase() !== p.payer_id.toUpperCase()))) claim(a, p.payer_id);
    let routes: PayerRoute[];
    if (p.routes) {
      const stray = LEGACY_ONLY.filter((f) => p[f] !== undefined);
      if (stray.length > 0) throw new Error(`${source}: payer ${p.payer_id} has routes, so ${stray.join(', ')} belong on its connections`);
      for (const r of p.routes) {
        const c = connections.get(r.connection);
        if (!c) throw new Error(`${source}: payer ${p.payer_id} routes through connection ${r.connection}, which is not listed`);
        if (!c.receiver_id && r.payer_id.length > 15)
          throw new Error(`${source}: payer ${p.payer_id}'s route ID ${r.payer_id} is too long for ISA08: give connection ${c.name} a receiver_id`);
      }
      routes = p.routes;
    } else {
      if (!p.endpoint || !p.protocol) throw new Error(`${source}: payer ${p.payer_id} needs routes, or an endpoint and a protocol`);
      if (p.receiver_id === undefined && p.payer_id.length > 15) {
        throw new Error(`${source}: payer ${p.payer_id} needs a receiver_id of at most 15 characters (its payer_id is too long for ISA08)`);
      }
      if (connections.has(p.payer_id)) throw new Error(`${source}: payer ${p.payer_id} has its own endpoint but a connection has its name`);
      connections.set(p.payer_id, legacyConnection(p));
      routes = [{ connection: p.payer_id, payer_id: p.payer_id }];
    }
    payers.push({ info: payerInfo(p), aliases: [...new Set(p.aliases ?? [])], routes });
  }
  return { submitter: { id: senderId, name: d.submitter?.name ?? null }, connections: [...connections.values()], providers, payers };
}

export function parseDirectory(value: unknown, source = 'payer directory'): PayerDirectory {
  if (!Value.Check(PayerDirectory, value)) {
    const problems = Value.Errors(PayerDirectory, value)
      .slice(0, 5)
      .map((e) => `${(e as { instancePath?: string }).instancePath || '/'} ${e.message}`);
    throw new Error(`${source} is invalid: ${problems.join('; ')}`);
  }
  resolveDirectory(value, source);
  return value;
}

export function loadDirectory(file: string): PayerDirectory {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read the payer directory ${file}: ${(err as NodeJS.ErrnoException).code ?? 'read error'}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`the payer directory ${file} is not valid JSON`);
  }
  return parseDirectory(json, `the payer directory ${file}`);
}

export function payerInfo(p: DirectoryPayer): PayerInfo {
  return {
    payer_id: p.payer_id,
    name: p.name,
    supports_search: p.supports_search,
    medicaid_state: p.medicaid_state ?? null,
    carve_out_administrators: p.carve_out_administrators ?? [],
    ...(p.cost_share_fallback ? { cost_share_fallback: p.cost_share_fallback } : {}),
  };
}

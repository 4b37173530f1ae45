/**
 * The payer directory (COVERAGE_PAYERS): which payers production mode talks to, where, how, and
 * within which limits. Schema documented in docs/payer-directory.md.
 */
import { readFileSync } from 'node:fs';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import type { PayerInfo } from './network.ts';

const PayerIdString = Type.String({ minLength: 1, maxLength: 80, pattern: '^[A-Za-z0-9._-]+$' });
/** CORE SenderID/ReceiverID and the 270's ISA06/ISA08 (GS02/GS03): X12 caps interchange IDs at 15 characters. */
const InterchangeId = Type.String({ minLength: 2, maxLength: 15, pattern: '^[A-Za-z0-9][A-Za-z0-9 ._-]*$' });

export const DirectoryPayer = Type.Object(
  {
    payer_id: PayerIdString,
    name: Type.String({ minLength: 1, maxLength: 120 }),
    endpoint: Type.String({ pattern: '^https?://[^\\s]+$', description: 'URL the CORE envelope is POSTed to' }),
    protocol: Type.Union([Type.Literal('core-soap'), Type.Literal('core-mime')]),
    receiver_id: Type.Optional(InterchangeId),
    credentials: Type.Optional(
      Type.Object(
        {
          username_env: Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }),
          password_env: Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }),
        },
        { additionalProperties: false },
      ),
    ),
    supports_search: Type.Boolean(),
    medicaid_state: Type.Optional(Type.Union([Type.String({ pattern: '^[A-Z]{2}$' }), Type.Null()])),
    carve_out_administrators: Type.Optional(Type.Array(PayerIdString)),
    max_concurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    rate_limit_per_second: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 10_000 })),
    timeout_ms: Type.Optional(Type.Integer({ minimum: 50, maximum: 120_000 })),
    retry: Type.Optional(
      Type.Object(
        {
          max_attempts: Type.Integer({ minimum: 0, maximum: 5 }),
          initial_delay_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
        },
        { additionalProperties: false },
      ),
    ),
    circuit_breaker: Type.Optional(
      Type.Object(
        {
          consecutive_failures: Type.Integer({ minimum: 1, maximum: 1000 }),
          half_open_after_ms: Type.Integer({ minimum: 10, maximum: 3_600_000 }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const PayerDirectory = Type.Object(
  {
    /** CORE SenderID this service identifies itself with, and ISA06/GS02 of every 270. */
    sender_id: InterchangeId,
    payers: Type.Array(DirectoryPayer),
  },
  { additionalProperties: false },
);

export type DirectoryPayer = Static<typeof DirectoryPayer>;
export type PayerDirectory = Static<typeof PayerDirectory>;

export function parseDirectory(value: unknown, source = 'payer directory'): PayerDirectory {
  if (!Value.Check(PayerDirectory, value)) {
    const problems = Value.Errors(PayerDirectory, value)
      .slice(0, 5)
      .map((e) => `${(e as { instancePath?: string }).instancePath || '/'} ${e.message}`);
    throw new Error(`${source} is invalid: ${problems.join('; ')}`);
  }
  const seen = new Set<string>();
  for (const p of value.payers) {
    if (seen.has(p.payer_id)) throw new Error(`${source} lists payer ${p.payer_id} twice`);
    if (p.receiver_id === undefined && p.payer_id.length > 15) {
      throw new Error(`${source}: payer ${p.payer_id} needs a receiver_id of at most 15 characters (its payer_id is too long for ISA08)`);
    }
    seen.add(p.payer_id);
  }
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
  };
}

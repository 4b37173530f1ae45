/** Builds the client for a connection's kind, reading its secrets from the environment variables it names. */
import type { Pool } from 'undici';
import { systemClock, type Clock } from '../../domain/clock.ts';
import type { DirectoryConnection } from '../connections.ts';
import { availityClient } from './availity.ts';
import { coreClient } from './core.ts';
import { optumClient } from './optum.ts';
import { stediClient } from './stedi.ts';
import type { VendorClient } from './types.ts';

export type { RouteTarget, VendorClient } from './types.ts';

/** The value of each named variable; a missing one stops the start with the variable's name (never its value). */
export function readSecrets<K extends string>(connection: string, names: Record<K, string | undefined>, env: NodeJS.ProcessEnv): Record<K, string> | null {
  const entries = Object.entries(names) as [K, string | undefined][];
  if (entries.every(([, v]) => v === undefined)) return null;
  const missing = entries.filter(([, v]) => v === undefined || !env[v]).map(([k, v]) => v ?? `${k}_env`);
  if (missing.length > 0) throw new Error(`connection ${connection}: environment variable ${missing.join(' and ')} is not set`);
  return Object.fromEntries(entries.map(([k, v]) => [k, env[v!]!])) as Record<K, string>;
}

/** The OAuth client-credentials part of an Optum or Availity connection: where to ask and as whom. */
function oauthClient(c: DirectoryConnection, env: NodeJS.ProcessEnv) {
  const secrets = readSecrets(c.name, { id: c.client_id_env, secret: c.client_secret_env }, env)!;
  return { baseUrl: c.base_url!, ...(c.token_url ? { tokenUrl: c.token_url } : {}), clientId: secrets.id, clientSecret: secrets.secret };
}

export function createVendorClient(c: DirectoryConnection, pool: Pool, env: NodeJS.ProcessEnv, clock: Clock = systemClock): VendorClient {
  switch (c.kind) {
    case 'core-soap':
    case 'core-mime':
      return coreClient(pool, c.name, c.kind, c.endpoint!, readSecrets(c.name, { username: c.username_env, password: c.password_env }, env));
    case 'stedi': {
      return stediClient(pool, c.name, {
        baseUrl: c.base_url!,
        apiKey: readSecrets(c.name, { key: c.api_key_env }, env)!.key,
        format: c.format ?? 'x12',
        ...(c.forwarded_for ? { forwardedFor: c.forwarded_for } : {}),
      });
    }
    case 'optum': {
      return optumClient(
        pool,
        c.name,
        {
          ...oauthClient(c, env),
          format: c.format ?? 'json',
        },
        clock,
      );
    }
    case 'availity': {
      return availityClient(
        pool,
        c.name,
        {
          ...oauthClient(c, env),
          scope: c.scope!,
          pollInitialMs: c.poll_initial_ms ?? 1000,
        },
        clock,
      );
    }
    default: {
      const kind: string = c.kind;
      throw new Error(`connection ${c.name}: kind ${kind} is not supported`);
    }
  }
}

/** The URL whose origin the connection's pool talks to. */
export function connectionOrigin(c: DirectoryConnection): string {
  return new URL(c.endpoint ?? c.base_url!).origin;
}

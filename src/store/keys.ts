/** API keys: random secrets shown once, stored as SHA-256 hashes, compared in constant time. */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from './db.ts';
import type { ApiKeyTable } from './schema.ts';
import type { Mode } from '../domain/mode.ts';
import { isoNow, systemClock, type Clock } from '../domain/clock.ts';

export interface ApiKey {
  id: string;
  name: string;
  env: Mode;
  prefix: string;
  rate_limit_per_minute: number | null;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  /** Who the key belongs to (batches belong to the owner): the key's own id, inherited through rotation. Absent: the key's id. */
  owner_id?: string | null;
}

/** The owner of a key's batches: a rotated key has its predecessor's. */
export const ownerOf = (key: Pick<ApiKey, 'id' | 'owner_id'>): string => key.owner_id || key.id;

export interface CreatedKey {
  key: ApiKey;
  /** The secret: returned once, never stored. */
  secret: string;
}

// One-shot hash(): no Hash object per request (verify runs on every call).
const hashSecret = (secret: string) => hash('sha256', secret, 'hex');
const toKey = ({ hash: _hash, ...row }: ApiKeyTable): ApiKey => row;

export function newSecret(env: Mode): string {
  return `cov_${env === 'sandbox' ? 'test' : 'live'}_${randomBytes(24).toString('base64url')}`;
}

/** How long a verified key is trusted before the store is asked again: revocation reaches every instance within it. */
const VERIFY_CACHE_MS = 1000;
const TOUCH_EVERY_MS = 60_000;

export class KeyStore {
  private readonly cache = new Map<string, { key: ApiKey | null; until: number }>();
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock = systemClock,
  ) {}

  async create(input: { name: string; env: Mode; rate_limit_per_minute?: number | null; secret?: string; owner_id?: string }): Promise<CreatedKey> {
    const secret = input.secret ?? newSecret(input.env);
    const id = `key_${randomBytes(8).toString('hex')}`;
    const row: ApiKeyTable = {
      id,
      name: input.name,
      env: input.env,
      prefix: secret.slice(0, 12),
      hash: hashSecret(secret),
      rate_limit_per_minute: input.rate_limit_per_minute ?? null,
      created_at: isoNow(this.clock),
      revoked_at: null,
      last_used_at: null,
      owner_id: input.owner_id ?? id,
    };
    await this.db.kysely.insertInto('api_keys').values(row).execute();
    return { key: toKey(row), secret };
  }

  /**
   * Registers a known secret (COVERAGE_DEV_KEY) if no key has it yet. A revoke is final: a revoked
   * secret is not registered again, and null says so.
   */
  async ensure(secret: string, name: string, env: Mode): Promise<ApiKey | null> {
    for (let attempt = 1; ; attempt++) {
      const existing = await this.db.kysely.selectFrom('api_keys').selectAll().where('hash', '=', hashSecret(secret)).executeTakeFirst();
      if (existing?.revoked_at) return null;
      if (existing && existing.env === env) return toKey(existing);
      try {
        if (existing) await this.db.kysely.deleteFrom('api_keys').where('id', '=', existing.id).execute();
        return (await this.create({ name, env, secret })).key;
      } catch (err) {
        // Instances starting together with the same key: one insert wins, the others find its row.
        if (attempt >= 3) throw err;
      }
    }
  }

  async verify(secret: string): Promise<ApiKey | null> {
    const hash = hashSecret(secret);
    const now = this.clock.now();
    const hit = this.cache.get(hash);
    if (hit && hit.until > now) return hit.key;
    const row = await this.db.kysely.selectFrom('api_keys').selectAll().where('hash', '=', hash).executeTakeFirst();
    const valid = row && !row.revoked_at && timingSafeEqual(Buffer.from(row.hash, 'hex'), Buffer.from(hash, 'hex'));
    const key = valid ? toKey(row) : null;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(hash, { key, until: now + VERIFY_CACHE_MS });
    if (key) this.touch(key.id, now);
    return key;
  }

  private touch(id: string, now: number): void {
    if ((this.touched.get(id) ?? 0) + TOUCH_EVERY_MS > now) return;
    this.touched.set(id, now);
    this.db.kysely
      .updateTable('api_keys')
      .set({ last_used_at: new Date(now).toISOString() })
      .where('id', '=', id)
      .execute()
      .catch(() => this.touched.delete(id));
  }

  async list(): Promise<ApiKey[]> {
    const rows = await this.db.kysely.selectFrom('api_keys').selectAll().orderBy('created_at').execute();
    return rows.map(toKey);
  }

  async get(id: string): Promise<ApiKey | null> {
    const row = await this.db.kysely.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toKey(row) : null;
  }

  async revoke(id: string): Promise<boolean> {
    return (await this.revokeWhere('id', id)) > 0;
  }

  /** Revokes every live key with this name (of this env, when given); returns how many. */
  async revokeNamed(name: string, env?: Mode): Promise<number> {
    return this.revokeWhere('name', name, env);
  }

  private async revokeWhere(column: 'id' | 'name', value: string, env?: Mode): Promise<number> {
    let update = this.db.kysely
      .updateTable('api_keys')
      .set({ revoked_at: isoNow(this.clock) })
      .where(column, '=', value)
      .where('revoked_at', 'is', null);
    if (env) update = update.where('env', '=', env);
    const res = await update.executeTakeFirst();
    this.cache.clear();
    return Number(res.numUpdatedRows);
  }

  /** Issues a new secret with the same name, env and limit, and revokes the old key. */
  async rotate(id: string): Promise<CreatedKey | null> {
    const old = await this.get(id);
    if (!old || old.revoked_at) return null;
    const created = await this.create({ name: old.name, env: old.env, rate_limit_per_minute: old.rate_limit_per_minute, owner_id: ownerOf(old) });
    await this.revoke(id);
    return created;
  }
}

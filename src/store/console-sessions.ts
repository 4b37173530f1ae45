/**
 * Console sign-in sessions. The cookie carries 32 random bytes; the store keeps only their SHA-256,
 * so a copy of the database cannot be replayed as a cookie. A session ends at the first of: sign-out,
 * its absolute lifetime, the idle timeout since its last request, the user being disabled, or the
 * user's password being reset. Every check happens here, on the server, at every request.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Mode } from '../domain/mode.ts';
import type { Db } from './db.ts';
import { dateOf, systemClock, type Clock } from '../domain/clock.ts';

export interface ConsoleSessionOptions {
  /** Idle logoff (default 15 minutes). */
  idleMs?: number;
  /** Absolute lifetime (default 12 hours). */
  lifetimeMs?: number;
  /** The clock of lockouts, sign-ins and expiries; the machine's by default. */
  clock?: Clock;
}

export interface SessionUser {
  id: string;
  username: string;
  env: Mode;
}

export interface ResolvedSession {
  user: SessionUser;
  created_at: string;
  /** When the session ends without further activity: the earlier of idle and absolute end. */
  idle_expires_at: string;
  expires_at: string;
}

/** Writes of last_seen_at are spared for requests this close together; idle logoff is exact to within it. */
const TOUCH_EVERY_MS = 5_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export class ConsoleSessionStore {
  readonly idleMs: number;
  readonly lifetimeMs: number;
  private readonly clock: Clock;

  constructor(
    private readonly db: Db,
    options: ConsoleSessionOptions = {},
  ) {
    this.idleMs = options.idleMs ?? 15 * 60_000;
    this.lifetimeMs = options.lifetimeMs ?? 12 * 60 * 60_000;
    this.clock = options.clock ?? systemClock;
  }

  async create(userId: string): Promise<{ token: string; session: Omit<ResolvedSession, 'user'> }> {
    const token = randomBytes(32).toString('base64url');
    const now = dateOf(this.clock);
    const row = {
      token_hash: hashToken(token),
      user_id: userId,
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: new Date(now.getTime() + this.lifetimeMs).toISOString(),
    };
    await this.db.kysely.insertInto('console_sessions').values(row).execute();
    return { token, session: { created_at: row.created_at, expires_at: row.expires_at, idle_expires_at: this.idleEnd(now, row.expires_at) } };
  }

  /** The live session a cookie token names, counting this request as activity; null when there is none. */
  async resolve(token: string): Promise<ResolvedSession | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
    const hash = hashToken(token);
    const row = await this.db.kysely
      .selectFrom('console_sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.created_at', 's.last_seen_at', 's.expires_at', 'u.id', 'u.username', 'u.env', 'u.disabled_at', 'u.password_changed_at'])
      .where('s.token_hash', '=', hash)
      .executeTakeFirst();
    if (!row) return null;
    const now = dateOf(this.clock);
    const nowIso = now.toISOString();
    const idleSince = now.getTime() - Date.parse(row.last_seen_at);
    const dead = row.disabled_at !== null || row.created_at < row.password_changed_at || row.expires_at <= nowIso || idleSince >= this.idleMs;
    if (dead) {
      await this.db.kysely.deleteFrom('console_sessions').where('token_hash', '=', hash).execute();
      return null;
    }
    if (idleSince >= TOUCH_EVERY_MS) {
      await this.db.kysely.updateTable('console_sessions').set({ last_seen_at: nowIso }).where('token_hash', '=', hash).execute();
    }
    return {
      user: { id: row.id, username: row.username, env: row.env },
      created_at: row.created_at,
      expires_at: row.expires_at,
      idle_expires_at: this.idleEnd(now, row.expires_at),
    };
  }

  /**
   * Marks a sign-in round trip's state (OpenID Connect) as used, until `ttlMs` from now: true the
   * first time, false for every replay of the same callback, on any instance sharing the store.
   */
  async claimState(state: string, ttlMs: number): Promise<boolean> {
    const now = dateOf(this.clock);
    await this.db.kysely.deleteFrom('oidc_states').where('expires_at', '<=', now.toISOString()).execute();
    const res = await this.db.kysely
      .insertInto('oidc_states')
      .values({ state_hash: hashToken(state), expires_at: new Date(now.getTime() + ttlMs).toISOString() })
      .onConflict((oc) => oc.column('state_hash').doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  async destroy(token: string): Promise<void> {
    await this.db.kysely.deleteFrom('console_sessions').where('token_hash', '=', hashToken(token)).execute();
  }

  async destroyForUser(userId: string): Promise<void> {
    await this.db.kysely.deleteFrom('console_sessions').where('user_id', '=', userId).execute();
  }

  /** Removes sessions past their absolute end or idle too long; returns how many. */
  async purge(): Promise<number> {
    const now = dateOf(this.clock).getTime();
    const res = await this.db.kysely
      .deleteFrom('console_sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', new Date(now).toISOString()), eb('last_seen_at', '<=', new Date(now - this.idleMs).toISOString())]))
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  private idleEnd(now: Date, expiresAt: string): string {
    const idle = new Date(now.getTime() + this.idleMs).toISOString();
    return idle < expiresAt ? idle : expiresAt;
  }
}

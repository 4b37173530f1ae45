/**
 * People who sign in to the console: argon2id password hashes, optional TOTP, and a lockout after
 * repeated failures. A failed sign-in looks the same whatever the reason (no such user, disabled,
 * locked, wrong password or code), so answers do not tell which usernames exist.
 */
import { randomBytes } from 'node:crypto';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Mode } from '../domain/mode.ts';
import type { Db } from './db.ts';
import type { Database, UserTable } from './schema.ts';
import type { DataKey } from './data-key.ts';
import { PasswordQueue } from './password-queue.ts';
import { newTotpSecret, otpauthUri, verifyTotp } from './totp.ts';
import { dateOf, systemClock, type Clock } from '../domain/clock.ts';

/** A person's id; a check a person makes runs under it where a machine's runs under a key id. */
export const USER_ID_PREFIX = 'usr_';

export interface User {
  id: string;
  username: string;
  env: Mode;
  /** Signs in through the organization's identity provider only (OpenID Connect); has no password here. */
  sso: boolean;
  totp: boolean;
  created_at: string;
  password_changed_at: string;
  disabled_at: string | null;
  locked_until: string | null;
  last_sign_in_at: string | null;
}

export interface UserStoreOptions {
  /** Seals TOTP secrets (COVERAGE_DATA_KEY); without it they are stored plain. */
  dataKey?: DataKey | null;
  /** The clock of lockouts, sign-ins and expiries; the machine's by default. */
  clock?: Clock;
  /** Failed sign-ins in a row that lock the account (default 5). */
  maxFailures?: number;
  /** How long a lockout lasts (default 15 minutes). */
  lockoutMs?: number;
  /** Where every password hash of this store waits its turn (password-queue.ts). */
  hashing?: PasswordQueue;
}

/** Why a sign-in failed: for the operator's log and tests, never for the person signing in. */
/** `totp_unreadable`: the TOTP secret was sealed under a data key this server does not have (a configuration fault). */
export type SignInFailure = 'no_such_user' | 'disabled' | 'wrong_env' | 'locked' | 'bad_password' | 'bad_totp' | 'totp_unreadable';
/** `user_id` is there when the username exists: for the operator's log of failed sign-ins. */
export type SignInResult = { ok: true; user: User } | { ok: false; reason: SignInFailure; user_id?: string };

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;
const USERNAME = /^[a-z0-9][a-z0-9._@-]{0,63}$/;

export class UserInputError extends Error {}

export const normalizeUsername = (name: string) => name.trim().toLowerCase();

export function checkUsername(name: string): string {
  const username = normalizeUsername(name);
  if (!USERNAME.test(username)) throw new UserInputError('a username is 1 to 64 characters: letters, digits and . _ @ -, starting with a letter or digit');
  return username;
}

export function checkPassword(password: string): void {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) throw new UserInputError(`a password needs at least ${MIN_PASSWORD_LENGTH} characters`);
  if (length > MAX_PASSWORD_LENGTH) throw new UserInputError(`a password has at most ${MAX_PASSWORD_LENGTH} characters`);
}

// argon2 (a native addon) loads at the first password: a server nobody signs in to does without it.
const argon2 = () => import('argon2').then((m) => m.default);
const hashPassword = async (password: string) => {
  const a = await argon2();
  return a.hash(password, { type: a.argon2id });
};
/** The password hash of a user who signs in through OpenID Connect only: no password matches it. */
const SSO_ONLY = '!sso-only';

/** Not locked, or locked until a time that has passed (ISO timestamps compare as text). */
const unlocked = (eb: ExpressionBuilder<Database, 'users'>, now: Date) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now.toISOString())]);

const toUser = (row: UserTable): User => ({
  id: row.id,
  username: row.username,
  env: row.env,
  sso: row.password_hash === SSO_ONLY,
  totp: row.totp_secret !== null,
  created_at: row.created_at,
  password_changed_at: row.password_changed_at,
  disabled_at: row.disabled_at,
  locked_until: row.locked_until,
  last_sign_in_at: row.last_sign_in_at,
});

/** Without a data key a TOTP secret is stored as it is, marked so. */
const PLAIN = 'plain:';
/** The sealed secret is bound to its user: copied onto another user's row it does not open. */
const totpContext = (userId: string) => `users.totp_secret:${userId}`;

export class UserStore {
  private readonly dataKey: DataKey | null;
  private readonly clock: Clock;
  readonly maxFailures: number;
  readonly lockoutMs: number;
  /** Every argon2 hash and verification of this store runs through it. */
  readonly hashing: PasswordQueue;
  /** Verified against when the username is unknown, so that case takes as long as a wrong password. */
  private dummyHash: Promise<string> | null = null;
  /** The sign-in under way for a username, which the next one for it waits for. */
  private readonly turns = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Db,
    options: UserStoreOptions = {},
  ) {
    this.dataKey = options.dataKey ?? null;
    this.clock = options.clock ?? systemClock;
    this.maxFailures = options.maxFailures ?? 5;
    this.lockoutMs = options.lockoutMs ?? 15 * 60_000;
    this.hashing = options.hashing ?? new PasswordQueue();
  }

  private hash(password: string): Promise<string> {
    return this.hashing.run(() => hashPassword(password));
  }

  /** Whether TOTP secrets are sealed with a data key. */
  get sealsSecrets(): boolean {
    return this.dataKey !== null;
  }

  private sealTotp(secret: string, userId: string): string {
    return this.dataKey ? this.dataKey.seal(secret, totpContext(userId)) : `${PLAIN}${secret}`;
  }

  /** The secret, or null when it was sealed under another data key (or none is configured). */
  private openTotp(stored: string, userId: string): string | null {
    if (stored.startsWith(PLAIN)) return stored.slice(PLAIN.length);
    return this.dataKey?.open(stored, totpContext(userId)) ?? null;
  }

  /** `sso: true` makes a user who signs in through OpenID Connect only (no password, no TOTP here). */
  async create(input: { username: string; env: Mode; password?: string; totp?: boolean; sso?: boolean }): Promise<{ user: User; totpUri: string | null }> {
    const username = checkUsername(input.username);
    if (input.sso && (input.password !== undefined || input.totp))
      throw new UserInputError('a single-sign-on user has no password or TOTP here: their identity provider checks them');
    if (!input.sso) checkPassword(input.password ?? '');
    if (await this.row(username)) throw new UserInputError(`user ${username} already exists`);
    const at = dateOf(this.clock).toISOString();
    const secret = input.totp ? newTotpSecret() : null;
    const id = `${USER_ID_PREFIX}${randomBytes(8).toString('hex')}`;
    const row: UserTable = {
      id,
      username,
      env: input.env,
      password_hash: input.sso ? SSO_ONLY : await this.hash(input.password!),
      totp_secret: secret ? this.sealTotp(secret, id) : null,
      totp_last_step: null,
      failed_attempts: 0,
      locked_until: null,
      created_at: at,
      password_changed_at: at,
      disabled_at: null,
      last_sign_in_at: null,
    };
    try {
      await this.db.kysely.insertInto('users').values(row).execute();
    } catch (err) {
      if (await this.row(username)) throw new UserInputError(`user ${username} already exists`);
      throw err;
    }
    return { user: toUser(row), totpUri: secret ? otpauthUri(secret, username) : null };
  }

  async list(): Promise<User[]> {
    const rows = await this.db.kysely.selectFrom('users').selectAll().orderBy('username').execute();
    return rows.map(toUser);
  }

  async get(username: string): Promise<User | null> {
    const row = await this.row(normalizeUsername(username));
    return row ? toUser(row) : null;
  }

  async getById(id: string): Promise<User | null> {
    const row = await this.db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toUser(row) : null;
  }

  /** How many users can sign in to a server of this env. */
  async countActive(env: Mode): Promise<number> {
    const row = await this.db.kysely
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('env', '=', env)
      .where('disabled_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Disables the user and ends their sessions; false when there is no such enabled user. */
  async disable(username: string): Promise<boolean> {
    const user = await this.get(username);
    if (!user || user.disabled_at) return false;
    await this.db.kysely.transaction().execute(async (tx) => {
      await tx
        .updateTable('users')
        .set({ disabled_at: dateOf(this.clock).toISOString() })
        .where('id', '=', user.id)
        .execute();
      await tx.deleteFrom('console_sessions').where('user_id', '=', user.id).execute();
    });
    return true;
  }

  async enable(username: string): Promise<boolean> {
    const res = await this.db.kysely
      .updateTable('users')
      .set({ disabled_at: null, failed_attempts: 0, locked_until: null })
      .where('username', '=', normalizeUsername(username))
      .where('disabled_at', 'is not', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /**
   * A new password, the lockout cleared and every session ended. `totp: true` issues a new TOTP
   * secret (its URI is returned), `false` removes TOTP, undefined keeps what there is.
   */
  async reset(username: string, input: { password: string; totp?: boolean | undefined }): Promise<{ user: User; totpUri: string | null } | null> {
    checkPassword(input.password);
    const existing = await this.row(normalizeUsername(username));
    if (!existing) return null;
    const secret = input.totp ? newTotpSecret() : null;
    const changes: Partial<UserTable> = {
      password_hash: await this.hash(input.password),
      password_changed_at: dateOf(this.clock).toISOString(),
      failed_attempts: 0,
      locked_until: null,
    };
    if (input.totp !== undefined) {
      changes.totp_secret = secret ? this.sealTotp(secret, existing.id) : null;
      changes.totp_last_step = null;
    }
    await this.db.kysely.transaction().execute(async (tx) => {
      await tx.updateTable('users').set(changes).where('id', '=', existing.id).execute();
      await tx.deleteFrom('console_sessions').where('user_id', '=', existing.id).execute();
    });
    return { user: toUser({ ...existing, ...changes }), totpUri: secret ? otpauthUri(secret, existing.username) : null };
  }

  /**
   * Checks a sign-in for a server of `env`. The work done is the same whether or not the user exists.
   *
   * Sign-ins for one username are checked one after another here, each once the one before has
   * finished. The attempt is counted before the password is hashed (`reserve`), so sign-ins sent at
   * once to several servers cannot all be checked against a count none of them has added to yet; a
   * success is granted only if the account is still unlocked when it is recorded (docs/console-access.md,
   * "Lockout"). Throws PasswordQueueFull, having counted nothing, when no hash may run or wait.
   */
  async signIn(input: { username: string; password: string; totp?: string | undefined; env: Mode }): Promise<SignInResult> {
    const username = normalizeUsername(input.username);
    const before = this.turns.get(username);
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    this.turns.set(username, mine);
    try {
      await before;
      return await this.signInNow(username, input);
    } finally {
      done();
      if (this.turns.get(username) === mine) this.turns.delete(username);
    }
  }

  private async signInNow(username: string, input: { password: string; totp?: string | undefined; env: Mode }): Promise<SignInResult> {
    // Read and counted once a hash may run: an attempt refused for a full queue counts for nothing.
    const { row, now, reserved, passwordOk } = await this.hashing.run(async () => {
      const row = await this.row(username);
      const now = dateOf(this.clock);
      const reserved = row && !row.disabled_at && row.env === input.env ? await this.reserve(row.id, now) : false;
      return { row, now, reserved, passwordOk: await this.verifyPassword(row?.password_hash ?? null, input.password) };
    });
    if (!row) return { ok: false, reason: 'no_such_user' };
    if (row.disabled_at) return { ok: false, reason: 'disabled', user_id: row.id };
    if (row.env !== input.env) return { ok: false, reason: 'wrong_env', user_id: row.id };
    if (!reserved) return { ok: false, reason: 'locked', user_id: row.id };
    if (!passwordOk) return this.failed(row.id, now, 'bad_password');
    let step: number | null = null;
    if (row.totp_secret) {
      const secret = this.openTotp(row.totp_secret, row.id);
      if (secret === null) {
        await this.release(row.id);
        return { ok: false, reason: 'totp_unreadable', user_id: row.id };
      }
      const code = (input.totp ?? '').trim();
      step = verifyTotp(secret, code, Math.floor(now.getTime() / 1000), row.totp_last_step);
      if (step === null)
        return verifyTotp(secret, code, Math.floor(now.getTime() / 1000)) === null ? this.failed(row.id, now, 'bad_totp') : this.reused(row.id);
    }
    // Clearing the count releases this attempt's reservation; no row is updated when a parallel attempt locked the account meanwhile.
    const update = this.db.kysely
      .updateTable('users')
      .set({ failed_attempts: 0, locked_until: null, last_sign_in_at: now.toISOString(), ...(step !== null ? { totp_last_step: step } : {}) })
      .where('id', '=', row.id)
      .where((eb) => unlocked(eb, now));
    // The step is claimed atomically: two sign-ins racing with one code, only one wins.
    const res = await (
      step !== null ? update.where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)])) : update
    ).executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) {
      const after = await this.db.kysely.selectFrom('users').select('locked_until').where('id', '=', row.id).executeTakeFirst();
      if (after?.locked_until && after.locked_until > now.toISOString()) return { ok: false, reason: 'locked', user_id: row.id };
      // A parallel sign-in (on another server) used the same code first.
      return this.reused(row.id);
    }
    return { ok: true, user: toUser({ ...row, failed_attempts: 0, locked_until: null, last_sign_in_at: now.toISOString() }) };
  }

  /**
   * A sign-in the identity provider vouched for: the username must be an enabled user of this env.
   * Lockout does not apply (the provider has its own); a locked account stays locked.
   */
  async signInVouched(username: string, env: Mode): Promise<SignInResult> {
    const row = await this.row(normalizeUsername(username));
    if (!row) return { ok: false, reason: 'no_such_user' };
    if (row.disabled_at) return { ok: false, reason: 'disabled', user_id: row.id };
    if (row.env !== env) return { ok: false, reason: 'wrong_env', user_id: row.id };
    const now = dateOf(this.clock).toISOString();
    if (row.locked_until && row.locked_until > now) return { ok: false, reason: 'locked', user_id: row.id };
    await this.db.kysely.updateTable('users').set({ last_sign_in_at: now }).where('id', '=', row.id).execute();
    return { ok: true, user: toUser({ ...row, last_sign_in_at: now }) };
  }

  /**
   * Counts an attempt as failed until it proves otherwise, in one conditional update: false when the
   * account is locked, or when this attempt is one more than the limit allows (it then locks the
   * account). A lock that has run out starts the count again.
   */
  private async reserve(id: string, now: Date): Promise<boolean> {
    const count = sql<number>`(case when locked_until is not null and locked_until <= ${now.toISOString()} then 0 else failed_attempts end) + 1`;
    const row = await this.db.kysely
      .updateTable('users')
      .set({
        failed_attempts: count,
        locked_until: sql<string | null>`case when ${count} > ${this.maxFailures} then ${this.lockEnd(now)} else null end`,
      })
      .where('id', '=', id)
      .where((eb) => unlocked(eb, now))
      .returning('locked_until')
      .executeTakeFirst();
    return row !== undefined && row.locked_until === null;
  }

  /** The reserved attempt stays counted; at the limit the account locks. */
  private async failed(id: string, now: Date, reason: SignInFailure): Promise<SignInResult> {
    await this.db.kysely
      .updateTable('users')
      .set({ locked_until: this.lockEnd(now) })
      .where('id', '=', id)
      .where('failed_attempts', '>=', this.maxFailures)
      .where((eb) => unlocked(eb, now))
      .execute();
    return { ok: false, reason, user_id: id };
  }

  /**
   * The right password with a right code that was already used: the same sign-in sent again (a
   * double click, a second tab). Refused as a wrong code is, but not counted: guessing is not done
   * with a code that works.
   */
  private async reused(id: string): Promise<SignInResult> {
    await this.release(id);
    return { ok: false, reason: 'bad_totp', user_id: id };
  }

  /** Takes back a reserved attempt that was neither a success nor the person's failure (a configuration fault, a code used twice). */
  private async release(id: string): Promise<void> {
    await this.db.kysely
      .updateTable('users')
      .set({ failed_attempts: sql`failed_attempts - 1` })
      .where('id', '=', id)
      .where('failed_attempts', '>', 0)
      .execute();
  }

  private lockEnd(now: Date): string {
    return new Date(now.getTime() + this.lockoutMs).toISOString();
  }

  private async verifyPassword(hash: string | null, password: string): Promise<boolean> {
    if ([...password].length > MAX_PASSWORD_LENGTH) return false;
    // Made within the caller's place in the hashing queue.
    this.dummyHash ??= hashPassword(randomBytes(24).toString('base64url'));
    // No user, or one without a password: the same hashing work, and never a match.
    const usable = hash !== null && hash !== SSO_ONLY;
    const against = usable ? hash : await this.dummyHash;
    try {
      return (await (await argon2()).verify(against, password)) && usable;
    } catch {
      return false;
    }
  }

  private row(username: string): Promise<UserTable | undefined> {
    return this.db.kysely.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  }
}

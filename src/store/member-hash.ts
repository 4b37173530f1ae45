/**
 * The audit trail names members by a keyed hash, never by their data: HMAC-SHA256 of the
 * normalized identity (member_id|first|last|dob). The same member checked twice hashes the same,
 * so an operator holding the identity and the key can find its checks; the hash alone reveals nothing.
 */
import { hash, randomBytes } from 'node:crypto';
import type { Db } from './db.ts';
import { settingOrCreate } from './settings.ts';

export interface MemberIdentity {
  member_id?: string | null | undefined;
  first_name?: string | null | undefined;
  last_name?: string | null | undefined;
  dob?: string | null | undefined;
}

export type MemberHasher = (identity: MemberIdentity) => string;

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/** The member a check's body (any operation's request, or a batch row's) names. */
export function identityOf(body: unknown): MemberIdentity {
  const b = (body ?? {}) as Record<string, unknown>;
  return { member_id: text(b.member_id), first_name: text(b.member_first_name), last_name: text(b.member_last_name), dob: text(b.member_dob) };
}

const AUDIT_KEY_SETTING = 'audit_member_hmac_key';

/** Case, spacing and Unicode composition do not make a different member. */
const normalize = (value: string | null | undefined) => (value ?? '').normalize('NFC').trim().replace(/\s+/g, ' ').toUpperCase();

/** Printable ASCII words with single spaces between them: NFC, trim and the space rule leave these as they are. */
const PLAIN = /^(?:[\x21-\x7e]+(?: [\x21-\x7e]+)*)?$/;
const normalizeField = (value: string | null | undefined) => (value == null ? '' : PLAIN.test(value) ? value.toUpperCase() : normalize(value));

/** The message a member's hash is the HMAC of: '|' cannot occur in any of the fields (the request schemas forbid it), so the join is unambiguous. */
export const identityText = (identity: MemberIdentity): string =>
  `${normalizeField(identity.member_id)}|${normalizeField(identity.first_name)}|${normalizeField(identity.last_name)}|${normalizeField(identity.dob)}`;

const BLOCK = 64;

/**
 * HMAC-SHA256 (RFC 2104) from two one-shot `crypto.hash` calls: the same digest as
 * createHmac('sha256', secret), without an Hmac object (and its native handle) per check.
 */
export function hmacSha256Hex(secret: string): (message: string) => string {
  let key = Buffer.from(secret, 'utf8');
  if (key.length > BLOCK) key = hash('sha256', key, 'buffer');
  let inner = Buffer.alloc(BLOCK + 256, 0x36);
  const outer = Buffer.alloc(BLOCK + 32, 0x5c);
  for (let i = 0; i < key.length; i++) {
    inner[i]! ^= key[i]!;
    outer[i]! ^= key[i]!;
  }
  return (message) => {
    const length = Buffer.byteLength(message, 'utf8');
    if (BLOCK + length > inner.length) {
      const grown = Buffer.alloc(BLOCK + length);
      inner.copy(grown, 0, 0, BLOCK);
      inner = grown;
    }
    inner.write(message, BLOCK, 'utf8');
    hash('sha256', inner.subarray(0, BLOCK + length), 'buffer').copy(outer, BLOCK);
    return hash('sha256', outer, 'hex');
  };
}

export function memberHasher(secret: string): MemberHasher {
  const hmac = hmacSha256Hex(secret);
  return (identity) => hmac(identityText(identity));
}

/** COVERAGE_AUDIT_KEY when set; otherwise a key generated once and kept in the store, so hashes stay stable across restarts. */
export async function auditHmacKey(db: Db, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  return settingOrCreate(db, AUDIT_KEY_SETTING, () => randomBytes(32).toString('base64url'));
}

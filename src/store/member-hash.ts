/**
 * The audit trail names members by a keyed hash, never by their data: HMAC-SHA256 of the
 * normalized identity (member_id|first|last|dob). The same member checked twice hashes the same,
 * so an operator holding the identity and the key can find its checks; the hash alone reveals nothing.
 */
import { createHmac, createSecretKey, randomBytes } from 'node:crypto';
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

export function memberHasher(secret: string): MemberHasher {
  // A KeyObject made once: createHmac with a string key prepares the key again on every call.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  return (identity) => createHmac('sha256', key).update(identityText(identity), 'utf8').digest('hex');
}

/** COVERAGE_AUDIT_KEY when set; otherwise a key generated once and kept in the store, so hashes stay stable across restarts. */
export async function auditHmacKey(db: Db, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  return settingOrCreate(db, AUDIT_KEY_SETTING, () => randomBytes(32).toString('base64url'));
}

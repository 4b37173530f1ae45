/**
 * Seals small secrets kept in the store (TOTP secrets) with AES-256-GCM under COVERAGE_DATA_KEY
 * (64 hex characters). Without a data key they are kept as they are, marked `plain:`, and the
 * operator is told so (docs/console-access.md).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export type DataKey = Buffer;

export function parseDataKey(hex: string | undefined): DataKey | null {
  if (hex === undefined || hex === '') return null;
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error('COVERAGE_DATA_KEY must be 64 hex characters (32 bytes)');
  return Buffer.from(hex, 'hex');
}

export function seal(plain: string, key: DataKey | null): string {
  if (!key) return `plain:${plain}`;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `gcm:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

export function unseal(stored: string, key: DataKey | null): string {
  if (stored.startsWith('plain:')) return stored.slice('plain:'.length);
  if (!stored.startsWith('gcm:')) throw new Error('unknown sealed value');
  if (!key) throw new Error('a sealed secret needs COVERAGE_DATA_KEY');
  const raw = Buffer.from(stored.slice('gcm:'.length), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

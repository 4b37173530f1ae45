/**
 * The data key (COVERAGE_DATA_KEY): encrypts member data the service keeps outside the database
 * rows it owns (the coverage cache in memory or Redis, and later monitors) and names such data
 * without revealing whom it is about.
 *
 * - seal/open: AES-256-GCM, a random 12-byte IV per value, the 16-byte tag checked on open; a
 *   context string (such as the cache entry's name) is bound as additional data, so a value moved
 *   to another entry does not open. Sealed text: `v1.` + base64url(iv | ciphertext | tag).
 * - name: HMAC-SHA256, hex; the same input always gives the same name, and without the key a name
 *   cannot be tied to a person (a plain hash of name + DOB could be found by trying candidates).
 *
 * The 32 configured bytes are not used directly: HKDF-SHA256 derives one key per purpose.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1.';

/** Reads COVERAGE_DATA_KEY: 64 hexadecimal characters. The error never repeats the value. */
export function parseDataKeyHex(value: string, name = 'COVERAGE_DATA_KEY'): Buffer {
  if (!/^[0-9a-fA-F]{64}$/.test(value)) {
    throw new Error(`${name} must be 64 hexadecimal characters (32 bytes), such as the output of \`openssl rand -hex 32\`; it has ${value.length} characters`);
  }
  return Buffer.from(value, 'hex');
}

const derive = (key: Buffer, purpose: string) => Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `coverage data key v1: ${purpose}`, KEY_BYTES));

export class DataKey {
  private readonly sealKey: Buffer;
  private readonly nameKey: Buffer;

  /** `ephemeral`: generated for this process only; what it sealed cannot be read after a restart. */
  private constructor(
    key: Buffer,
    readonly ephemeral: boolean,
  ) {
    if (key.length !== KEY_BYTES) throw new Error(`a data key has ${KEY_BYTES} bytes`);
    this.sealKey = derive(key, 'aes-256-gcm');
    this.nameKey = derive(key, 'hmac-sha256 names');
  }

  static fromHex(hex: string): DataKey {
    return new DataKey(parseDataKeyHex(hex), false);
  }

  static fromBytes(key: Buffer): DataKey {
    return new DataKey(key, false);
  }

  static generate(): DataKey {
    return new DataKey(randomBytes(KEY_BYTES), true);
  }

  seal(plain: string, context = ''): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return VERSION + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** The plain text, or null when the value was not sealed with this key and context, or was altered. */
  open(sealed: string, context = ''): string | null {
    if (!sealed.startsWith(VERSION)) return null;
    const raw = Buffer.from(sealed.slice(VERSION.length), 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.sealKey, raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }

  name(input: string): string {
    return createHmac('sha256', this.nameKey).update(input, 'utf8').digest('hex');
  }
}

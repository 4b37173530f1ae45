/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226 HOTP): HMAC-SHA-1, 6 digits, 30-second
 * steps, one step of clock drift either way. What authenticator apps do by default.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
const DRIFT_STEPS = 1;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=-]/g, '');
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const index = BASE32.indexOf(ch);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 4226 section 5.3: the code for one counter value. */
export function hotp(secret: Uint8Array, counter: number, digits = TOTP_DIGITS, algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha1'): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, secret).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

export const totpStep = (unixSeconds: number) => Math.floor(unixSeconds / TOTP_STEP_SECONDS);

/** 20 random bytes (160 bits, RFC 4226's recommendation), base32 as apps expect it. */
export const newTotpSecret = (): string => base32Encode(randomBytes(20));

/**
 * The time step a code matches, within one step of now, or null. Steps at or before
 * `lastStep` are refused: a code that was accepted once is not accepted again.
 */
export function verifyTotp(secretBase32: string, code: string, unixSeconds: number, lastStep: number | null = null): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const secret = base32Decode(secretBase32);
  const now = totpStep(unixSeconds);
  let matched: number | null = null;
  for (let step = now - DRIFT_STEPS; step <= now + DRIFT_STEPS; step++) {
    // Every candidate is computed and compared, so the time taken does not tell which matched.
    const ok = timingSafeEqual(Buffer.from(hotp(secret, step)), Buffer.from(code));
    if (ok && matched === null && (lastStep === null || step > lastStep)) matched = step;
  }
  return matched;
}

/** The otpauth:// URI authenticator apps read (usually from a QR code). */
export function otpauthUri(secretBase32: string, account: string, issuer = 'Coverage console'): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const params = new URLSearchParams({ secret: secretBase32, issuer, algorithm: 'SHA1', digits: String(TOTP_DIGITS), period: String(TOTP_STEP_SECONDS) });
  return `otpauth://totp/${label}?${params.toString().replace(/\+/g, '%20')}`;
}

/** TOTP against the RFC 4226 and RFC 6238 test vectors, and the base32 of RFC 4648. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { base32Decode, base32Encode, hotp, otpauthUri, verifyTotp } from '../../src/store/totp.ts';

const SEED_SHA1 = Buffer.from('12345678901234567890');
const SEED_SHA256 = Buffer.from('12345678901234567890123456789012');
const SEED_SHA512 = Buffer.from('1234567890123456789012345678901234567890123456789012345678901234');

test('HOTP: the RFC 4226 appendix D values', () => {
  const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
  assert.deepEqual(
    expected.map((_, counter) => hotp(SEED_SHA1, counter)),
    expected,
  );
});

test('TOTP: the RFC 6238 appendix B values (8 digits, SHA-1, SHA-256, SHA-512)', () => {
  const table: [number, string, string, string][] = [
    [59, '94287082', '46119246', '90693936'],
    [1111111109, '07081804', '68084774', '25091201'],
    [1111111111, '14050471', '67062674', '99943326'],
    [1234567890, '89005924', '91819424', '93441116'],
    [2000000000, '69279037', '90698825', '38618901'],
    [20000000000, '65353130', '77737706', '47863826'],
  ];
  for (const [time, sha1, sha256, sha512] of table) {
    const step = Math.floor(time / 30);
    assert.equal(hotp(SEED_SHA1, step, 8, 'sha1'), sha1, `sha1 at ${time}`);
    assert.equal(hotp(SEED_SHA256, step, 8, 'sha256'), sha256, `sha256 at ${time}`);
    assert.equal(hotp(SEED_SHA512, step, 8, 'sha512'), sha512, `sha512 at ${time}`);
  }
});

test('verifyTotp: the 6-digit code of now and one step either side, once each, nothing further', () => {
  const secret = base32Encode(SEED_SHA1);
  const t = 1111111111;
  const step = Math.floor(t / 30);
  const code = (s: number) => hotp(SEED_SHA1, s);
  assert.equal(verifyTotp(secret, code(step), t), step);
  assert.equal(verifyTotp(secret, code(step - 1), t), step - 1);
  assert.equal(verifyTotp(secret, code(step + 1), t), step + 1);
  assert.equal(verifyTotp(secret, code(step - 2), t), null);
  assert.equal(verifyTotp(secret, code(step + 2), t), null);
  // Replay: a step already used, or an earlier one, is refused.
  assert.equal(verifyTotp(secret, code(step), t, step), null);
  assert.equal(verifyTotp(secret, code(step - 1), t, step), null);
  assert.equal(verifyTotp(secret, code(step + 1), t, step), step + 1);
  for (const bad of ['', '12345', '1234567', 'abcdef', ` ${code(step)}`]) assert.equal(verifyTotp(secret, bad, t), null, bad);
});

test('base32: RFC 4648 section 10 vectors (unpadded) and round trips', () => {
  const vectors: [string, string][] = [
    ['', ''],
    ['f', 'MY'],
    ['fo', 'MZXQ'],
    ['foo', 'MZXW6'],
    ['foob', 'MZXW6YQ'],
    ['fooba', 'MZXW6YTB'],
    ['foobar', 'MZXW6YTBOI'],
  ];
  for (const [plain, encoded] of vectors) {
    assert.equal(base32Encode(Buffer.from(plain)), encoded);
    assert.equal(base32Decode(`${encoded}${'='.repeat((8 - (encoded.length % 8)) % 8)}`).toString(), plain);
  }
  fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => Buffer.from(bytes).equals(base32Decode(base32Encode(bytes)))));
  assert.throws(() => base32Decode('MZ1W'));
});

test('otpauth URI: what authenticator apps read', () => {
  const uri = new URL(otpauthUri('JBSWY3DPEHPK3PXP', 'alice@clinic'));
  assert.equal(uri.protocol, 'otpauth:');
  assert.equal(uri.host, 'totp');
  assert.equal(decodeURIComponent(uri.pathname), '/Coverage console:alice@clinic');
  assert.deepEqual(Object.fromEntries(uri.searchParams), {
    secret: 'JBSWY3DPEHPK3PXP',
    issuer: 'Coverage console',
    algorithm: 'SHA1',
    digits: '6',
    period: '30',
  });
});

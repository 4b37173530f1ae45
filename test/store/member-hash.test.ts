/** The member hash with its fast path for plain text is the one it replaced (normalizing every field, then createHmac). */
import { createHmac, createSecretKey } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { memberHasher, type MemberIdentity } from '../../src/store/member-hash.ts';

// The code before 2026-11-27, verbatim.
const oldNormalize = (value: string | null | undefined) => (value ?? '').normalize('NFC').trim().replace(/\s+/g, ' ').toUpperCase();
function oldMemberHasher(secret: string) {
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  return (identity: MemberIdentity) =>
    createHmac('sha256', key).update([identity.member_id, identity.first_name, identity.last_name, identity.dob].map(oldNormalize).join('|')).digest('hex');
}

const awkward = fc.constantFrom(
  ' ',
  '  ',
  '\t',
  '\n',
  '\u00a0',
  '\u2003',
  'e\u0301',
  'é',
  'ß',
  'ǆ',
  'ﬁ',
  'İ',
  'ı',
  '\ud83d\ude00',
  '\ud800',
  '|',
  'a',
  'Z',
  '~',
  '-',
  "'",
);
const field = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.array(fc.oneof(awkward, fc.string({ maxLength: 3 })), { maxLength: 8 }).map((parts) => parts.join('')),
  fc.stringMatching(/^[A-Za-z0-9 .'-]{0,30}$/),
);
const identity = fc.record({ member_id: field, first_name: field, last_name: field, dob: field }, { requiredKeys: [] });
const secret = fc.oneof(fc.string({ maxLength: 100 }), fc.string({ unit: 'binary', minLength: 60, maxLength: 200 }), fc.constant('k'.repeat(43)));

test('memberHasher gives the createHmac hash of the old normalization', () => {
  fc.assert(
    fc.property(secret, fc.array(identity, { minLength: 1, maxLength: 5 }), (s, identities) => {
      const [now, before] = [memberHasher(s), oldMemberHasher(s)];
      for (const id of identities) assert.equal(now(id), before(id));
    }),
    { numRuns: 3000 },
  );
});

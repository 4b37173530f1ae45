/**
 * The console's alert words (src/http/console/result-card.js readableMessage): dates and phone
 * numbers made readable, never digits inside an identifier such as a remittance id that an advisory
 * cites (REMITTANCE_MISMATCH).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';

const { readableMessage } = (await import(new URL('../../src/http/console/result-card.js', import.meta.url).href)) as {
  readableMessage: (message: string) => string;
};

test('phones and dates are made readable', () => {
  assert.equal(
    readableMessage('Call 8005550142 or (8005550142) or 18005550142 before 2026-12-31.'),
    'Call (800) 555-0142 or at (800) 555-0142 or (800) 555-0142 before Dec 31, 2026.',
  );
});

test('property: a remittance id is cited as it is, whatever digits its hex holds', () => {
  fc.assert(
    fc.property(fc.stringMatching(/^[0-9a-f]{24}$/), (hex) => {
      const message = `rem_${hex} line 1, received 2026-12-01: $40.00 where $30.00 was estimated`;
      assert.ok(readableMessage(message).startsWith(`rem_${hex} line 1, received Dec 1, 2026`), readableMessage(message));
    }),
  );
  assert.equal(readableMessage('rem_3f0c1234567890ab5e5e5e5e line 1'), 'rem_3f0c1234567890ab5e5e5e5e line 1');
});

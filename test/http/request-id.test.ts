/** Request IDs are UUID version 7 (RFC 9562): the time in their first 48 bits, random bits after it. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { newRequestId } from '../../src/http/request-id.ts';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const timeOf = (id: string) => parseInt(id.slice(0, 8) + id.slice(9, 13), 16);

test('a request ID is a version 7 UUID carrying the time it was made', () => {
  const before = Date.now();
  const id = newRequestId();
  assert.match(id, V7);
  assert.ok(timeOf(id) >= before && timeOf(id) <= Date.now());
});

test('any time from 1970 to the end of the 48 bits is written back exactly, and later times sort after earlier ones', () => {
  const time = fc.integer({ min: 0, max: 2 ** 48 - 1 });
  fc.assert(
    fc.property(time, time, (a, b) => {
      const [x, y] = [newRequestId(a), newRequestId(b)];
      assert.match(x, V7);
      assert.equal(timeOf(x), a);
      if (a < b) assert.ok(x < y, `${x} < ${y}`);
    }),
    { numRuns: 2000 },
  );
});

test('IDs made in the same millisecond differ (74 random bits)', () => {
  const now = Date.now();
  const ids = new Set(Array.from({ length: 20_000 }, () => newRequestId(now)));
  assert.equal(ids.size, 20_000);
});

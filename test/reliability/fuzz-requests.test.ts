/**
 * Request fuzzing on the four check endpoints: whatever arrives, the answer is never a 5xx and
 * every error carries an error_code; afterwards the server is healthy and still right.
 */
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { assertHealthy, assertWellFormed, ENDPOINTS, liftRateLimit, send, VALID } from './attack.ts';

// Bounded and repeatable in CI; FUZZ_RUNS and FUZZ_SEED explore further locally.
const RUNS = Number(process.env.FUZZ_RUNS) || 25;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 9;
let server: TestServer;
before(async () => {
  server = await startTestServer();
  await liftRateLimit(server);
});
after(() => server.close());

const INVALID_DATES = [
  '2023-02-29',
  '1988-13-01',
  '1988-00-10',
  '1988-02-30',
  '0000-01-01',
  '1899-12-31',
  '9999-99-99',
  '88-03-14',
  '1988-3-14',
  '1988/03/14',
  '2024-02-29T00:00:00Z',
  '',
  ' ',
  '\u0000',
];

const hugeString = fc.oneof(
  fc.integer({ min: 1_000, max: 70_000 }).map((n) => 'A'.repeat(n)),
  fc.integer({ min: 500, max: 30_000 }).map((n) => '€𝄞'.repeat(n)),
);
const unicodeString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.constantFrom('\uD800', '\uDFFF', '\u0000', '\u202E', 'ＡＢＣ', 'ß', 'İ', '\uFEFF', '~*^:', 'ISA*00*'),
);
/** Nesting as text: deeper than JSON.stringify would care to build. */
const deepNesting = fc
  .tuple(fc.integer({ min: 1, max: 30_000 }), fc.constantFrom('[', '{"a":'))
  .map(([depth, open]) => open.repeat(depth) + '1' + (open === '[' ? ']' : '}').repeat(depth));

/** A value for one field: the wrong type, strange text, a bad date, or a huge string. */
const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  unicodeString,
  fc.constantFrom(...INVALID_DATES),
  fc.constantFrom(null, true, 0, -1, 1e308, -0, 15000.5, '15000.5', '-1', '1e5', [], {}, ['10010MHNA']),
  hugeString,
);

/** A valid body with fields replaced, removed or added. */
const mutatedBody = (path: string) =>
  fc
    .record({
      replace: fc.dictionary(fc.constantFrom(...Object.keys(VALID[path]!)), weirdValue, { maxKeys: 3 }),
      remove: fc.subarray(Object.keys(VALID[path]!), { maxLength: 2 }),
      extra: fc.dictionary(fc.string({ maxLength: 12 }), weirdValue, { maxKeys: 2 }),
    })
    .map(({ replace, remove, extra }) => {
      const body: Record<string, unknown> = { ...VALID[path], ...extra, ...replace };
      for (const k of remove) delete body[k];
      return JSON.stringify(body);
    });

/** Raw JSON text naming a field twice, or smuggling prototype keys. */
const duplicateKeys = (path: string) =>
  fc.tuple(fc.constantFrom(...Object.keys(VALID[path]!), '__proto__', 'constructor'), weirdValue, fc.boolean()).map(([key, value, first]) => {
    const valid = JSON.stringify(VALID[path]).slice(1, -1);
    const dup = `${JSON.stringify(key)}:${key === '__proto__' ? '{"polluted":true}' : (JSON.stringify(value) ?? 'null')}`;
    return `{${first ? `${dup},${valid}` : `${valid},${dup}`}}`;
  });

const truncated = (path: string) =>
  fc.nat().map((n) => {
    const text = JSON.stringify(VALID[path]);
    return text.slice(0, n % text.length);
  });

const CONTENT_TYPES = [
  null,
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/JSON',
  'application/json;;',
  'application/jsonx',
  'application/vnd.api+json',
  '*/*',
  'json',
];
const contentType = fc.oneof(
  fc.constantFrom(...CONTENT_TYPES),
  fc.string({ maxLength: 40 }).filter((s) => /^[\x21-\x7e ]*$/.test(s)),
);

/** Query strings, extra segments and broken percent-escapes after the endpoint's path. */
const urlSuffix = fc.oneof(
  fc.constant(''),
  fc.stringMatching(/^\?[a-z%=&0-9A-F.[\]]{0,30}$/),
  fc.stringMatching(/^\/[a-z%0-9A-F.]{0,20}$/),
  fc.constantFrom('%', '%E0%A4%A', '%00', '%2F..', '/', '//', '?%', '?a[b]=1&a[b]=2', '#x', '/%ZZ'),
);

async function fuzz(
  path: string,
  what: string,
  bodies: fc.Arbitrary<string>,
  type: fc.Arbitrary<string | null> = fc.constant('application/json'),
  suffix: fc.Arbitrary<string> = fc.constant(''),
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(bodies, type, suffix, async (body, ct, end) => {
      assertWellFormed(await send(server, path + end, body, ct), `${what} ${path}${end} (${ct}) ${body.slice(0, 120)}`);
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
  await assertHealthy(server);
}

for (const path of ENDPOINTS) {
  describe(`fuzzing ${path}`, () => {
    test('random JSON of any shape', () =>
      fuzz(
        path,
        'random JSON',
        fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null'),
      ));
    test('valid bodies with wrong types, huge and unicode strings, invalid dates, missing and extra fields', () => fuzz(path, 'mutated', mutatedBody(path)));
    test('deep nesting, alone and as a field', () =>
      fuzz(
        path,
        'deep',
        fc.oneof(
          deepNesting,
          deepNesting.map((nested) => JSON.stringify(VALID[path]).replace(/^\{/, `{"member_id":${nested},`)),
        ),
      ));
    test('wrong content types', () => fuzz(path, 'content type', fc.constant(JSON.stringify(VALID[path])), contentType));
    test('truncated bodies', () => fuzz(path, 'truncated', truncated(path)));
    test('duplicate and prototype keys', () => fuzz(path, 'duplicate keys', duplicateKeys(path)));
    test('query strings, extra segments and broken escapes in the URL', () =>
      fuzz(path, 'url', fc.constant(JSON.stringify(VALID[path])), undefined, urlSuffix));
  });
}

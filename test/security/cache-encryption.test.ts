/**
 * Finding 8, the coverage cache: answers hold names, DOBs and addresses, and sat in Redis (and in
 * memory) as plain JSON under an unkeyed hash of the identity. They are now sealed with the data key
 * (AES-256-GCM, random IV per value) under a keyed-hash name; an altered value is a miss, not a crash.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { loadConfig } from '../../src/server/config.ts';
import type { Coverage, Person } from '../../src/domain/coverage.ts';
import { coverageCacheKey, MemoryCoverageCache } from '../../src/operations/cache.ts';
import { buildInquiry } from '../../src/operations/inquiry.ts';
import { DataKey, parseDataKeyHex } from '../../src/store/data-key.ts';
import { VALID_NPI } from '../helpers/requests.ts';
import { startProduction } from '../helpers/production.ts';
import { REDIS_URL } from '../support/stores.ts';
import { coverageArbitrary } from '../x12/coverage-arbitrary.ts';
import { needsRedis } from '../helpers/needs.ts';

const DATA_KEY = 'a3'.repeat(32);

const PERSON: Person = {
  first_name: 'QUILLON',
  last_name: 'MARCHBANKS',
  member_id: '88123MHQX',
  gender: 'F',
  dob: '1971-07-19',
  address: { street_line_1: '4417 ZEPHYRWOOD LANE', street_line_2: null, city: 'OSKALOOSA', state: 'MO', zip: '64111' },
};
const PHI = ['QUILLON', 'MARCHBANKS', '88123MHQX', '1971-07-19', '19710719', 'ZEPHYRWOOD', 'OSKALOOSA'];

test('memory cache: what the process holds names no one and reads back the same answer', async () => {
  const key = DataKey.generate();
  await fc.assert(
    fc.asyncProperty(coverageArbitrary, fc.string({ minLength: 1, maxLength: 40 }), async (coverage: Coverage, lookup) => {
      const cache = new MemoryCoverageCache(60_000, key);
      const value = { coverage: { ...coverage, member: PERSON, subscriber: PERSON }, warnings: ['note for QUILLON'] };
      await cache.set(lookup, value);
      const [[name, sealed]] = cache.held() as [[string, string]];
      for (const s of PHI) assert.ok(!sealed.includes(s) && !name.includes(s), s);
      assert.equal(name, `coverage:v2:${key.name(lookup)}`, 'named by a keyed hash of the lookup key');
      assert.match(sealed, /^v1\.[A-Za-z0-9_-]+$/);
      assert.deepEqual(await cache.get(lookup), value);
    }),
    { numRuns: 60 },
  );
});

test('data key: random IV per value, altered or misplaced values do not open', () => {
  const key = DataKey.fromHex(DATA_KEY);
  const a = key.seal('QUILLON MARCHBANKS', 'entry-1');
  const b = key.seal('QUILLON MARCHBANKS', 'entry-1');
  assert.notEqual(a, b, 'a fresh IV each time');
  assert.equal(key.open(a, 'entry-1'), 'QUILLON MARCHBANKS');
  assert.equal(key.open(a, 'entry-2'), null, 'bound to its entry');
  assert.equal(DataKey.generate().open(a, 'entry-1'), null, 'another key cannot read it');
  fc.assert(
    fc.property(fc.nat(), fc.integer({ min: 1, max: 255 }), (at, flip) => {
      const raw = Buffer.from(a.slice(3), 'base64url');
      const i = at % raw.length;
      raw[i] = raw[i]! ^ flip;
      assert.equal(key.open(`v1.${raw.toString('base64url')}`, 'entry-1'), null);
    }),
  );
  for (const junk of ['', 'v1.', 'v1.AAAA', 'v2.xyz', 'not sealed']) assert.equal(key.open(junk, 'entry-1'), null);
  assert.equal(key.name('x'), key.name('x'));
  assert.notEqual(key.name('x'), DataKey.generate().name('x'), 'names are keyed');
});

test('COVERAGE_DATA_KEY: 64 hex characters, checked at start, never echoed', () => {
  for (const bad of ['short', 'g'.repeat(64), 'a'.repeat(63), 'a'.repeat(65), `${'a'.repeat(62)} b`]) {
    assert.throws(
      () => parseDataKeyHex(bad),
      (err: Error) => /64 hexadecimal characters/.test(err.message) && !err.message.includes(bad),
    );
    assert.throws(() => loadConfig({ COVERAGE_DATA_KEY: bad }), /COVERAGE_DATA_KEY must be 64 hexadecimal characters/);
  }
  assert.equal(loadConfig({ COVERAGE_DATA_KEY: DATA_KEY }).dataKey?.length, 32);
});

test('production with a Redis cache and no data key refuses to start; the cache off or a key lets it', () => {
  const env = { COVERAGE_MODE: 'production', REDIS_URL: 'redis://127.0.0.1:6379' };
  assert.throws(() => loadConfig(env), /COVERAGE_DATA_KEY is required in production with REDIS_URL/);
  assert.equal(loadConfig({ ...env, COVERAGE_CACHE_TTL_MS: '0' }).dataKey, undefined);
  assert.ok(loadConfig({ ...env, COVERAGE_DATA_KEY: DATA_KEY }).dataKey);
  assert.equal(loadConfig({ COVERAGE_MODE: 'production' }).dataKey, undefined, 'an in-memory cache makes its own key');
});

test('Redis cache: no member data in keys or values, a repeat is a hit, a tampered value is a miss', { skip: needsRedis() }, async () => {
  const redis = new Redis(REDIS_URL!);
  // A key of this run's own, so entries of earlier runs (same person, same payer) are other names.
  const prod = await startProduction({ payerIds: ['SBX-EVERGREEN'], env: { REDIS_URL: REDIS_URL!, COVERAGE_DATA_KEY: randomBytes(32).toString('hex') } });
  try {
    const before = new Set(await redis.keys('coverage:*'));
    const body = {
      member_id: '10010MHNA',
      member_first_name: 'Avery',
      member_last_name: 'Walsh',
      member_dob: '1988-03-14',
      payer_id: 'SBX-EVERGREEN',
      provider_npi: VALID_NPI,
    };
    const first = await prod.server.post('/v1/estimate', body);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.demographics.last_name, 'WALSH');
    const added = (await redis.keys('coverage:*')).filter((k) => !before.has(k));
    assert.ok(added.length >= 1, 'the answer is cached');
    const address = first.body.demographics.address?.street_line_1 as string | undefined;
    // Nor the old unkeyed hash of the identity, which anyone could recompute from a guess.
    const unkeyed = coverageCacheKey(
      buildInquiry(
        { payer_id: 'SBX-EVERGREEN', member_id: '10010MHNA', first_name: 'Avery', last_name: 'Walsh', dob: '1988-03-14', provider_npi: VALID_NPI },
        '2026-06-15',
      ),
    );
    for (const name of added) {
      const sealed = (await redis.get(name))!;
      for (const s of ['AVERY', 'Avery', 'WALSH', 'Walsh', '1988-03-14', '19880314', '10010MHNA', ...(address ? [address] : [])]) {
        assert.ok(!sealed.includes(s) && !name.includes(s), `Redis holds ${s}`);
      }
      assert.ok(!name.includes(unkeyed.split(':').pop()!));
    }

    const hits = prod.sim.hits('SBX-EVERGREEN');
    const repeat = await prod.server.post('/v1/estimate', body);
    assert.equal(repeat.status, 200);
    assert.equal(prod.sim.hits('SBX-EVERGREEN'), hits, 'answered from the cache');

    for (const name of added) {
      const raw = Buffer.from((await redis.get(name))!.slice(3), 'base64url');
      raw[raw.length >> 1] = raw[raw.length >> 1]! ^ 0x55;
      await redis.set(name, `v1.${raw.toString('base64url')}`, 'PX', 60_000);
    }
    const tampered = await prod.server.post('/v1/estimate', body);
    assert.equal(tampered.status, 200, JSON.stringify(tampered.body));
    assert.deepEqual(tampered.body.demographics, first.body.demographics);
    assert.ok(prod.sim.hits('SBX-EVERGREEN') > hits, 'an altered value is a miss: the payer is asked again');
  } finally {
    await prod.close();
    redis.disconnect();
  }
});

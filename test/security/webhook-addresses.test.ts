/**
 * Webhook targets in the IPv6 ranges that lead to IPv4 (issue 23, finding 5): IPv4-compatible,
 * IPv4-mapped in every spelling, NAT64, 6to4, Teredo, site-local and discard. Each spelling is
 * refused when the webhook is registered, when a delivery's host resolves to it, and by the lookup
 * the delivery connects through.
 */
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { DeliveryWorker } from '../../src/operations/monitoring/delivery-worker.ts';
import { parseIpv6 } from '../../src/operations/monitoring/ip-address.ts';
import { newWebhookSecret } from '../../src/operations/monitoring/signature.ts';
import { guardedLookup, refusedAddress } from '../../src/operations/monitoring/webhook-target.ts';
import { newEventId, WebhookStore } from '../../src/store/webhooks.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { sqliteStore, type TestStore } from '../support/stores.ts';
import { eventually } from '../helpers/eventually.ts';

/** Range, then spellings of addresses in it; the reason names the range. */
const REFUSED: readonly (readonly [string, RegExp, readonly string[]])[] = [
  [
    '::/96 (IPv4-compatible)',
    /IPv4-compatible/,
    ['::7f00:1', '::127.0.0.1', '::a9fe:a9fe', '::169.254.169.254', '::a00:1', '0:0:0:0:0:0:a00:1', '0000:0000:0000:0000:0000:0000:0a00:0001', '::0.0.0.2'],
  ],
  [
    '::ffff:0:0/96 (IPv4-mapped) of loopback',
    /loopback/,
    [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::FFFF:7F00:1',
      '0:0:0:0:0:ffff:7f00:1',
      '0000:0000:0000:0000:0000:ffff:7f00:0001',
      '0::ffff:127.0.0.1',
      '0:0:0:0:0:ffff:127.0.0.1',
      '::ffff:7f01:203',
    ],
  ],
  [
    '::ffff:0:0/96 (IPv4-mapped) of private and link-local',
    /private, link-local/,
    [
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '0:0:0:0:0:ffff:a9fe:a9fe',
      '::ffff:10.0.0.1',
      '::ffff:a00:1',
      '::ffff:c0a8:101',
      '::ffff:0:0',
      '::ffff:ac10:1',
    ],
  ],
  ['::ffff:0:0:0/96 (IPv4-translated)', /IPv4-translated/, ['::ffff:0:7f00:1', '::ffff:0:169.254.169.254', '0:0:0:0:ffff:0:a9fe:a9fe']],
  [
    '64:ff9b::/96 (NAT64)',
    /NAT64/,
    ['64:ff9b::a9fe:a9fe', '64:ff9b::169.254.169.254', '64:ff9b:0:0:0:0:7f00:1', '0064:ff9b:0000:0000:0000:0000:0a00:0001', '64:FF9B::8.8.8.8'],
  ],
  ['64:ff9b:1::/48 (local NAT64)', /NAT64/, ['64:ff9b:1::a9fe:a9fe', '64:ff9b:1::169.254.169.254', '64:ff9b:1:ffff::1', '64:ff9b:1:0:0:0:0:1']],
  ['2002::/16 (6to4)', /6to4/, ['2002:7f00:1::', '2002:a9fe:a9fe::1', '2002:a00:1::a00:1', '2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '2002::']],
  ['2001::/32 (Teredo)', /Teredo/, ['2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001::1', '2001:0:ffff:ffff::']],
  ['fec0::/10 (site-local)', /site-local/, ['fec0::1', 'FEC0::a9fe:a9fe', 'fec0:0:0:0:0:0:0:1', 'feff:ffff::1', 'fed0::169.254.169.254']],
  ['100::/64 (discard)', /discard/, ['100::1', '100::ffff:ffff:ffff:ffff', '0100:0000:0000:0000:0000:0000:0000:0001', '100::169.254.169.254']],
];

/** Near the refused ranges but outside them. */
const ALLOWED = ['2606:4700:4700::1111', '2001:4860:4860::8888', '100:0:0:1::1', '64:ff9b:2::1', '2003::1', '::ffff:8.8.8.8', '::ffff:808:808', '64:ff9a::1'];

const cases = REFUSED.flatMap(([range, why, spellings]) => spellings.map((address) => ({ range, why, address })));

describe('refusedAddress', () => {
  for (const { range, why, address } of cases) {
    test(`${range}: ${address} is refused`, () => {
      assert.match(refusedAddress(address, false) ?? 'accepted', why);
      assert.match(refusedAddress(`[${address}]`, false) ?? 'accepted', why);
    });
  }
  test('with the insecure flag only the loopback spellings are let through', () => {
    for (const { range, address } of cases) {
      const loop = range.includes('of loopback');
      assert.equal(refusedAddress(address, true) === null, loop, `${address}: ${refusedAddress(address, true)}`);
    }
  });
  for (const address of ALLOWED) {
    test(`${address} is a public address`, () => assert.equal(refusedAddress(address, false), null));
  }
  test('the parser reads any spelling of an address to the same hextets', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 }), fc.boolean(), (h, upper) => {
        const full = h.map((x) => x.toString(16).padStart(4, '0')).join(':');
        const short = h.map((x) => x.toString(16)).join(':');
        const v4tail = `${h
          .slice(0, 6)
          .map((x) => x.toString(16))
          .join(':')}:${h[6]! >> 8}.${h[6]! & 0xff}.${h[7]! >> 8}.${h[7]! & 0xff}`;
        for (const s of [full, short, v4tail]) assert.deepEqual(parseIpv6(upper ? s.toUpperCase() : s), h, s);
        // The longest run of zero groups written as "::", where there is one.
        const runs = [...short.matchAll(/(^|:)0(:0)+(:|$)/g)];
        if (runs.length > 0) {
          const run = runs[0]!;
          const compressed = `${short.slice(0, run.index)}::${short.slice(run.index + run[0].length)}`;
          assert.deepEqual(parseIpv6(compressed), h, compressed);
        }
      }),
    );
    for (const bad of ['1:2:3:4:5:6:7', '1:2:3:4:5:6:7:8:9', '1::2::3', '::12345', '::1.2.3', '::1.2.3.256', '1:2:3:4:5:6:7::8', 'g::1', ':::']) {
      assert.equal(parseIpv6(bad), null, bad);
    }
  });
});

describe('at registration (POST /v1/webhooks, no insecure flag)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());
  for (const { range, address } of cases) {
    test(`${range}: https://[${address}]/hook is refused`, async () => {
      const res = await server.post('/v1/webhooks', { url: `https://[${address}]/hook`, events: ['coverage.changed'] });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.errors[0].field, 'url');
    });
  }
});

describe('at delivery time, when the host resolves to the address', () => {
  let store: TestStore;
  before(async () => {
    store = await sqliteStore();
  });
  after(() => store.cleanup());

  const hostOf = (i: number) => `h${i}.hooks.test`;
  const resolve = (host: string): Promise<LookupAddress[]> => {
    const i = Number(/^h(\d+)\./.exec(host)?.[1]);
    const address = Number.isInteger(i) ? cases[i]?.address : undefined;
    return address ? Promise.resolve([{ address, family: 6 }]) : Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }));
  };

  test('the delivery is refused with the range named, and nothing is sent', async () => {
    const db = await store.open();
    const hooks = new WebhookStore(db);
    const queued: { hook: string; delivery: string }[] = [];
    for (let i = 0; i < cases.length; i++) {
      const owner = `o-range-${i}`;
      const hook = await hooks.create({
        ownerId: owner,
        keyId: 'k',
        url: `https://${hostOf(i)}/hook`,
        events: ['coverage.changed'],
        secret: newWebhookSecret(),
      });
      const [delivery] = await hooks.enqueue(null, owner, {
        id: newEventId(),
        type: 'coverage.changed',
        timestamp: new Date().toISOString(),
        data: { monitor_id: `mon_${i}`, changes: [] },
      });
      queued.push({ hook: hook.id, delivery: delivery! });
    }
    const worker = new DeliveryWorker({
      queue: hooks,
      concurrency: 8,
      leaseMs: 30_000,
      pollMs: 20,
      timeoutMs: 2_000,
      backoff: { baseMs: 60_000, capMs: 60_000, giveUpAfterMs: 24 * 3_600_000 },
      allowInsecure: false,
      resolve,
    });
    worker.start();
    await eventually('every delivery attempted', async () => {
      for (const q of queued) if (((await hooks.delivery(q.hook, q.delivery))?.attempts ?? 0) < 1) return false;
      return true;
    });
    await worker.close();
    for (const [i, q] of queued.entries()) {
      const log = (await hooks.delivery(q.hook, q.delivery))!;
      assert.equal(log.last_status, null, cases[i]!.address);
      assert.match(log.last_error ?? '', cases[i]!.why, cases[i]!.address);
    }
  });

  for (const [i, { range, why, address }] of cases.entries()) {
    test(`the connect-time lookup refuses ${range}: ${address}`, async () => {
      const lookup = guardedLookup(false, resolve);
      const err = await new Promise<Error | null>((done) => lookup(hostOf(i), { all: true }, (e) => done(e)));
      assert.match(err?.message ?? 'accepted', why);
    });
  }
});

/** The pure parts: the snapshot diff (fast-check properties), the schedule, the window, the backoff and the signature. */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import fc from 'fast-check';
import { diffSnapshots, readSnapshot, snapshotOf, WATCHED_FIELDS, type CoverageSnapshot } from '../../src/domain/monitoring/coverage-diff.ts';
import { nextAttemptAt, retryDelayMs } from '../../src/domain/monitoring/backoff.ts';
import { appointmentChecks, inWindow, nextCheckAfter, parseCheckWindow, windowOpening } from '../../src/domain/monitoring/schedule.ts';
import { newWebhookSecret, signWebhook } from '../../src/operations/monitoring/signature.ts';

const watched = fc.oneof(fc.string({ maxLength: 12 }), fc.integer({ min: 0, max: 10_000_000 }), fc.boolean(), fc.constant(null));
const snapshot = fc.record(Object.fromEntries(WATCHED_FIELDS.map((f) => [f, watched]))) as fc.Arbitrary<CoverageSnapshot>;

test('diff(a, a) is empty', () => {
  fc.assert(fc.property(snapshot, (a) => diffSnapshots(a, structuredClone(a)).length === 0));
});

test('every changed field is named once, with its old and new value, and no unchanged field is named', () => {
  fc.assert(
    fc.property(snapshot, snapshot, (a, b) => {
      const changes = diffSnapshots(a, b);
      const named = changes.map((c) => c.field);
      assert.equal(new Set(named).size, named.length);
      for (const field of WATCHED_FIELDS) {
        const change = changes.find((c) => c.field === field);
        if (Object.is(a[field], b[field])) assert.equal(change, undefined, field);
        else assert.deepEqual(change, { field, old: a[field], new: b[field] });
      }
    }),
  );
});

test('diff is symmetric: b to a names the same fields, old and new swapped', () => {
  fc.assert(
    fc.property(snapshot, snapshot, (a, b) => {
      assert.deepEqual(
        diffSnapshots(b, a),
        diffSnapshots(a, b).map((c) => ({ field: c.field, old: c.new, new: c.old })),
      );
    }),
  );
});

test('a snapshot keeps no names or dates of birth; unknown remaining amounts stay unknown, never "met"', () => {
  const s = snapshotOf({
    plan_status: 'ACTIVE',
    demographics: { first_name: 'AVERY', last_name: 'WALSH', dob: '1988-03-14', member_id: 'M1' },
    subscriber_demographics: { first_name: 'X' },
    remaining_deductible: null,
    remaining_oop_max: 0,
    alerts: [{ code: 'PAYER_CORRECTED', message: '' }],
    third_party_payer: { name: 'Behavioral Co', payer_id: null, phone: null },
  });
  assert.deepEqual(Object.keys(s), [...WATCHED_FIELDS]);
  assert.ok(!JSON.stringify(s).includes('AVERY') && !JSON.stringify(s).includes('1988'));
  assert.equal(s.deductible_met, null);
  assert.equal(s.oop_max_met, true);
  assert.equal(s.payer_corrected, true);
  assert.equal(s.carve_out, 'Behavioral Co');
  assert.deepEqual(readSnapshot(JSON.parse(JSON.stringify(s))), s);
});

test('appointments: 3 days before and on the day at 10:00 UTC by default; every_days counts from the check; none left is null', () => {
  const schedule = { appointments: ['2026-12-03', '2026-12-01'] };
  assert.deepEqual(
    appointmentChecks(schedule).map((d) => d.toISOString()),
    ['2026-11-28T10:00:00.000Z', '2026-11-30T10:00:00.000Z', '2026-12-01T10:00:00.000Z', '2026-12-03T10:00:00.000Z'],
  );
  assert.equal(nextCheckAfter(schedule, new Date('2026-11-30T10:00:00Z'))!.toISOString(), '2026-12-01T10:00:00.000Z');
  assert.equal(nextCheckAfter(schedule, new Date('2026-12-03T10:00:00Z')), null);
  assert.equal(
    nextCheckAfter({ ...schedule, check_days_before: [1], check_hour_utc: 6 }, new Date('2026-11-01T00:00:00Z'))!.toISOString(),
    '2026-11-30T06:00:00.000Z',
  );
  assert.equal(nextCheckAfter({ every_days: 2, appointments: ['2026-12-03'] }, new Date('2026-11-20T08:00:00Z'))!.toISOString(), '2026-11-22T08:00:00.000Z');
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 365 }), fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }), (n, at) => {
      const next = nextCheckAfter({ every_days: n }, at)!;
      assert.equal(next.getTime() - at.getTime(), n * 86_400_000);
    }),
  );
});

test('the off-hours window, in UTC, crosses midnight; a due check waits for it to open', () => {
  const w = parseCheckWindow('22:00-06:00')!;
  assert.equal(inWindow(w, new Date('2026-06-15T23:30:00Z')), true);
  assert.equal(inWindow(w, new Date('2026-06-15T05:59:00Z')), true);
  assert.equal(inWindow(w, new Date('2026-06-15T06:00:00Z')), false);
  assert.equal(windowOpening(w, new Date('2026-06-15T12:00:00Z')).toISOString(), '2026-06-15T22:00:00.000Z');
  assert.equal(windowOpening(parseCheckWindow('01:00-03:00'), new Date('2026-06-15T12:00:00Z')).toISOString(), '2026-06-16T01:00:00.000Z');
  assert.equal(parseCheckWindow(''), null);
  assert.throws(() => parseCheckWindow('10pm-6am'), /HH:MM-HH:MM in UTC/);
  assert.throws(() => parseCheckWindow('06:00-06:00'), /same time/);
});

test('backoff: doubles from the base within jitter, capped, and gives up past 24 h', () => {
  const policy = { baseMs: 30_000, capMs: 6 * 3_600_000, giveUpAfterMs: 24 * 3_600_000 };
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 60 }), fc.double({ min: 0, max: 0.999, noNaN: true }), (attempts, r) => {
      const step = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(attempts - 1, 40));
      const delay = retryDelayMs(policy, attempts, r);
      assert.ok(delay >= step / 2 - 1 && delay <= step, `${attempts}: ${delay}`);
    }),
  );
  const first = new Date('2026-06-15T00:00:00Z');
  assert.ok(nextAttemptAt(policy, first, new Date('2026-06-15T01:00:00Z'), 3, 0.5));
  assert.equal(nextAttemptAt(policy, first, new Date('2026-06-15T23:59:00Z'), 12, 0.5), null);
});

test('signatures: the Standard Webhooks test vector, and an independent HMAC over id.timestamp.body', () => {
  assert.equal(
    signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'),
    'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  );
  const secret = newWebhookSecret();
  assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  const by = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
    .update('msg_1.1700000000.{"a":1}')
    .digest('base64');
  assert.equal(signWebhook(secret, 'msg_1', 1700000000, '{"a":1}'), `v1,${by}`);
});

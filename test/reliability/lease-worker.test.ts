/**
 * The lease-based worker the batch runner, the monitor runner and the delivery worker share: leases
 * end on the injected clock, claims are released on close, a failed release is logged (the
 * delivery worker used to swallow it), and a wake during a pass runs one more pass.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LeaseWorker, type LeaseQueue } from '../../src/operations/lease-worker.ts';
import { clockAt } from '../helpers/clock.ts';

const T0 = new Date('2026-06-15T10:00:00Z');

function queue(opts: { releaseFails?: boolean } = {}) {
  const released: string[][] = [];
  const q: LeaseQueue = {
    renew: async () => {},
    release: async (claims) => {
      if (opts.releaseFails) throw new TypeError('connection lost');
      released.push([...claims]);
    },
  };
  return { q, released };
}

function log() {
  const lines: { obj: Record<string, unknown>; msg: string }[] = [];
  return { lines, error: (obj: Record<string, unknown>, msg: string) => lines.push({ obj, msg }), warn: () => {} };
}

test("a lease ends leaseMs after the injected clock's now, and each claim is the worker's own", () => {
  const w = new LeaseWorker({ prefix: 't', what: 'things', queue: queue().q, clock: clockAt(() => T0), leaseMs: 30_000, pollMs: 60_000, pass: async () => {} });
  const a = w.lease();
  const b = w.lease();
  assert.equal(a.until.toISOString(), '2026-06-15T10:00:30.000Z');
  assert.match(a.claim, new RegExp(`^${w.id}\\.1$`));
  assert.notEqual(a.claim, b.claim);
});

test('on close, once the grace has passed, the claims still held are released, and only those', async () => {
  const { q, released } = queue();
  let finish!: () => void;
  const w = new LeaseWorker({
    prefix: 't',
    what: 'things',
    queue: q,
    clock: clockAt(() => T0),
    leaseMs: 30_000,
    pollMs: 60_000,
    graceMs: 0,
    pass: async () => {},
  });
  w.run('done.1', [1], async () => {});
  w.run(
    'held.1',
    [2],
    () =>
      new Promise<void>((r) => {
        finish = r;
      }),
  );
  await new Promise((r) => setImmediate(r));
  assert.equal(w.active, 1);
  await w.close();
  assert.deepEqual(released, [['held.1']], 'the finished claim is not released; the one still running is');
  finish();
});

test('a release that fails is logged by its class, without its message', async () => {
  const { q } = queue({ releaseFails: true });
  const l = log();
  const w = new LeaseWorker({
    prefix: 't',
    what: 'things',
    queue: q,
    clock: clockAt(() => T0),
    leaseMs: 30_000,
    pollMs: 60_000,
    graceMs: 0,
    log: l,
    pass: async () => {},
  });
  w.run('held.1', [1], () => new Promise<void>(() => {}));
  await w.close();
  assert.deepEqual(l.lines, [{ obj: { err_type: 'TypeError' }, msg: 'things could not be released; they return when their lease ends' }]);
});

test('a wake during a pass runs one more pass after it, not two at once; idle waits for both and their work', async () => {
  let passes = 0;
  let concurrent = 0;
  let most = 0;
  const done: number[] = [];
  const w: LeaseWorker = new LeaseWorker({
    prefix: 't',
    what: 'things',
    queue: queue().q,
    clock: clockAt(() => T0),
    leaseMs: 30_000,
    pollMs: 60_000,
    pass: async () => {
      concurrent++;
      most = Math.max(most, concurrent);
      const n = ++passes;
      await new Promise((r) => setImmediate(r));
      w.run(`c.${n}`, [n], async (i) => void done.push(i));
      concurrent--;
    },
  });
  void w.wake();
  void w.wake();
  void w.wake();
  await w.idle();
  assert.equal(passes, 2, 'the wakes during the first pass ask for one more');
  assert.equal(most, 1);
  assert.deepEqual(done.sort(), [1, 2]);
  await w.close();
});

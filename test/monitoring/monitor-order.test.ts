/**
 * The watched list in an order a front desk works by: the soonest upcoming appointment first, or
 * the latest check that found a change first; monitors with neither come last, oldest first. On
 * SQLite, and on PostgreSQL when DATABASE_URL is set. The clock is injected (today is a parameter).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Db } from '../../src/store/db.ts';
import type { LastCheck } from '../../src/domain/monitoring/last-check.ts';
import { MonitorStore } from '../../src/store/monitors.ts';
import { WebhookStore } from '../../src/store/webhooks.ts';
import { onEachStore, type TestStore } from '../support/stores.ts';

const TODAY = '2026-06-15';

async function seed(db: Db) {
  const monitors = new MonitorStore(db, new WebhookStore(db));
  const made: Record<string, string> = {};
  const specs: [string, string[], string | null][] = [
    ['past only', ['2026-06-01'], null],
    ['far', ['2026-05-01', '2026-09-01'], '2026-06-10T10:00:00Z'],
    ['soon', ['2026-06-20', '2026-07-01'], null],
    ['today', ['2026-06-15'], '2026-06-14T10:00:00Z'],
    ['none', [], null],
  ];
  let t = Date.parse('2026-06-01T00:00:00Z');
  for (const [reference, appointments, changedAt] of specs) {
    const m = await monitors.create(
      {
        ownerId: 'o1',
        keyId: 'k1',
        env: 'sandbox',
        payerKey: 'p',
        what: { request: { member_id: 'M1' }, reference },
        schedule: appointments.length ? { appointments } : { every_days: 7 },
        firstCheckAt: new Date(t),
      },
      new Date((t += 60_000)),
    );
    made[reference] = m.id;
    if (changedAt) {
      const last: LastCheck = {
        at: changedAt,
        status: 200,
        error_code: null,
        plan_status: 'ACTIVE',
        member_obligation: 3000,
        changes: [{ field: 'copayment', old: 2500, new: 3000 }] as LastCheck['changes'],
        timeline: [{ at: changedAt, changes: [] }],
      };
      assert.ok(await monitors.recordCheck(m, { last, snapshot: null, events: [] }, null));
    }
  }
  return { monitors, made };
}

onEachStore(
  (name) => `watched list order (${name})`,
  (make) => {
    test('by next appointment, by latest change, a page at a time', async () => {
      const store: TestStore = await make();
      try {
        const { monitors, made } = await seed(await store.open());
        const refs = (list: { what: { reference: string | null } | null }[]) => list.map((m) => m.what?.reference);
        assert.deepEqual(refs(await monitors.listOrdered('o1', 'appointment', TODAY, 0, 10)), ['today', 'soon', 'far', 'past only', 'none']);
        assert.deepEqual(refs(await monitors.listOrdered('o1', 'change', TODAY, 0, 10)), ['today', 'far', 'past only', 'soon', 'none']);
        assert.deepEqual(refs(await monitors.listOrdered('o1', 'appointment', TODAY, 1, 2)), ['soon', 'far']);
        assert.deepEqual(await monitors.listOrdered('someone else', 'appointment', TODAY, 0, 10), []);
        assert.ok(made.today);
      } finally {
        await store.cleanup();
      }
    });
  },
);

/** The batch.completed event of a batch whose every row has finished (docs/monitoring.md). */
import type { Db } from './db.ts';
import type { WebhookEvent } from './webhooks.ts';
import { dateOf, systemClock } from '../domain/clock.ts';

/** The event and its owner, or null while rows are waiting or running. The event id is the batch's: queued twice, it is sent once. */
export async function batchCompletedEvent(db: Db, batchId: string, now = dateOf(systemClock)): Promise<{ ownerId: string; event: WebhookEvent } | null> {
  const batch = await db.kysely.selectFrom('batches').select(['id', 'owner_id', 'total']).where('id', '=', batchId).executeTakeFirst();
  if (!batch) return null;
  const counts = await db.kysely
    .selectFrom('batch_rows')
    .select((eb) => ['state', 'error_code', eb.fn.countAll<number | string | bigint>().as('n')])
    .where('batch_id', '=', batchId)
    .groupBy(['state', 'error_code'])
    .execute();
  const sum = (pred: (c: (typeof counts)[number]) => boolean) => counts.filter(pred).reduce((n, c) => n + Number(c.n), 0);
  if (sum((c) => c.state === 'pending' || c.state === 'running') > 0) return null;
  const cancelled = sum((c) => c.state === 'cancelled');
  return {
    ownerId: batch.owner_id,
    event: {
      id: `evt_batch_${batch.id}`,
      type: 'batch.completed',
      timestamp: now.toISOString(),
      data: {
        batch_id: batch.id,
        status: cancelled > 0 ? 'cancelled' : 'completed',
        total: Number(batch.total),
        done: sum((c) => c.state === 'done'),
        ok: sum((c) => c.state === 'done' && c.error_code === null),
        cancelled,
        results_url: `/v1/batches/${batch.id}/results`,
      },
    },
  };
}

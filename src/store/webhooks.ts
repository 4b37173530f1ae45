/**
 * Webhooks and the outbox of their deliveries (docs/monitoring.md). An event is written as one
 * delivery per subscribed webhook, in the transaction of what caused it, with an id derived from
 * the webhook and the event: writing the same event twice (two instances finishing one batch)
 * queues it once. Deliveries are claimed under a lease (FOR UPDATE SKIP LOCKED on PostgreSQL), so
 * instances sharing the database never send one at the same time.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { AttemptOutcome, DueDelivery } from '../domain/monitoring/delivery.ts';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { WebhookEventType } from '../domain/schemas/monitors.ts';
import type { Db } from './db.ts';
import { releaseLeases, renewLeases } from './leases.ts';
import type { WebhookDeliveryTable, WebhookTable } from './monitor-tables.ts';
import type { Database } from './schema.ts';
import { SealedText } from './sealed-text.ts';
import { dateOf, systemClock } from '../domain/clock.ts';

export interface WebhookEvent {
  /** Stable per event: the same event queued twice is one delivery per webhook. */
  id: string;
  type: WebhookEventType;
  /** ISO 8601 instant. */
  timestamp: string;
  data: Record<string, unknown>;
}

export interface StoredWebhook {
  id: string;
  url: string;
  events: string[];
  created_at: string;
}

export type DeliveryRow = Omit<WebhookDeliveryTable, 'payload' | 'claimed_by' | 'lease_until' | 'webhook_id' | 'retry_from'>;

type Executor = Kysely<Database> | Transaction<Database>;

export const newWebhookId = () => `wh_${randomBytes(12).toString('hex')}`;
export const newEventId = () => `evt_${randomBytes(12).toString('hex')}`;
const deliveryId = (webhookId: string, eventId: string) => `msg_${createHash('sha256').update(`${webhookId}:${eventId}`).digest('base64url').slice(0, 32)}`;
export const eventBody = (event: WebhookEvent) => JSON.stringify({ type: event.type, timestamp: event.timestamp, data: event.data });

export class WebhookStore {
  readonly text: SealedText;

  constructor(
    private readonly db: Db,
    text: SealedText = new SealedText(null),
  ) {
    this.text = text;
  }

  async create(input: { ownerId: string; keyId: string; url: string; events: string[]; secret: string }, now = dateOf(systemClock)): Promise<StoredWebhook> {
    const id = newWebhookId();
    const row: WebhookTable = {
      id,
      owner_id: input.ownerId,
      key_id: input.keyId,
      url: input.url,
      events: JSON.stringify(input.events),
      secret: this.text.write(input.secret, `webhooks:${id}:secret`),
      created_at: now.toISOString(),
    };
    await this.db.kysely.insertInto('webhooks').values(row).execute();
    return { id, url: row.url, events: input.events, created_at: row.created_at };
  }

  async list(ownerId: string): Promise<StoredWebhook[]> {
    const rows = await this.db.kysely
      .selectFrom('webhooks')
      .select(['id', 'url', 'events', 'created_at'])
      .where('owner_id', '=', ownerId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ ...r, events: JSON.parse(r.events) as string[] }));
  }

  async get(id: string, ownerId: string): Promise<StoredWebhook | undefined> {
    const r = await this.db.kysely
      .selectFrom('webhooks')
      .select(['id', 'url', 'events', 'created_at'])
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    return r ? { ...r, events: JSON.parse(r.events) as string[] } : undefined;
  }

  /** Deletes the webhook and its deliveries, sent or not. */
  async delete(id: string, ownerId: string): Promise<boolean> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const res = await trx.deleteFrom('webhooks').where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
      if (Number(res.numDeletedRows) !== 1) return false;
      await trx.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
      return true;
    });
  }

  /** Queues the event for each of the owner's webhooks subscribed to its type (or for one webhook); the deliveries' ids. */
  async enqueue(executor: Executor | null, ownerId: string, event: WebhookEvent, onlyWebhook?: string, now = dateOf(systemClock)): Promise<string[]> {
    const db = executor ?? this.db.kysely;
    let query = db.selectFrom('webhooks').select(['id', 'events']).where('owner_id', '=', ownerId);
    if (onlyWebhook) query = query.where('id', '=', onlyWebhook);
    const hooks = (await query.execute()).filter((h) => onlyWebhook !== undefined || (JSON.parse(h.events) as string[]).includes(event.type));
    const body = eventBody(event);
    const ids: string[] = [];
    for (const hook of hooks) {
      const id = deliveryId(hook.id, event.id);
      ids.push(id);
      await db
        .insertInto('webhook_deliveries')
        .values({
          id,
          webhook_id: hook.id,
          event_type: event.type,
          payload: this.text.write(body, `webhook_deliveries:${id}:payload`),
          state: 'pending',
          attempts: 0,
          next_attempt_at: now.toISOString(),
          claimed_by: null,
          lease_until: null,
          last_status: null,
          last_error: null,
          created_at: now.toISOString(),
          retry_from: now.toISOString(),
          last_attempt_at: null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    }
    return ids;
  }

  /** The webhook's deliveries, newest first. */
  async deliveries(webhookId: string, offset: number, limit: number): Promise<DeliveryRow[]> {
    const rows = await this.db.kysely
      .selectFrom('webhook_deliveries')
      .select(['id', 'event_type', 'state', 'attempts', 'next_attempt_at', 'last_status', 'last_error', 'created_at', 'last_attempt_at'])
      .where('webhook_id', '=', webhookId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => ({ ...r, attempts: Number(r.attempts), last_status: r.last_status === null ? null : Number(r.last_status) }));
  }

  async delivery(webhookId: string, id: string): Promise<DeliveryRow | undefined> {
    const r = await this.db.kysely
      .selectFrom('webhook_deliveries')
      .select(['id', 'event_type', 'state', 'attempts', 'next_attempt_at', 'last_status', 'last_error', 'created_at', 'last_attempt_at'])
      .where('webhook_id', '=', webhookId)
      .where('id', '=', id)
      .executeTakeFirst();
    return r ? { ...r, attempts: Number(r.attempts), last_status: r.last_status === null ? null : Number(r.last_status) } : undefined;
  }

  /** Sends it again (same webhook-id) as soon as a worker is free, with a fresh 24 h of retries. */
  async redeliver(webhookId: string, id: string, now = dateOf(systemClock)): Promise<boolean> {
    const res = await this.db.kysely
      .updateTable('webhook_deliveries')
      .set({ state: 'pending', next_attempt_at: now.toISOString(), retry_from: now.toISOString() })
      .where('webhook_id', '=', webhookId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Takes up to `limit` deliveries due now whose lease (if any) has ended, under the claim. */
  async claimDue(limit: number, claim: string, leaseUntil: Date, now = dateOf(systemClock)): Promise<DueDelivery[]> {
    const at = now.toISOString();
    const lease = leaseUntil.toISOString();
    const { rows } =
      this.db.dialect === 'postgres'
        ? await sql<{ id: string }>`
            with picked as (
              select id from webhook_deliveries
              where state = 'pending' and next_attempt_at <= ${at} and (claimed_by is null or lease_until < ${at})
              order by next_attempt_at limit ${limit}
              for update skip locked)
            update webhook_deliveries d set claimed_by = ${claim}, lease_until = ${lease}
            from picked p where d.id = p.id
            returning d.id`.execute(this.db.kysely)
        : await sql<{ id: string }>`
            update webhook_deliveries set claimed_by = ${claim}, lease_until = ${lease}
            where id in (
              select id from webhook_deliveries
              where state = 'pending' and next_attempt_at <= ${at} and (claimed_by is null or lease_until < ${at})
              order by next_attempt_at limit ${limit})
            returning id`.execute(this.db.kysely);
    if (rows.length === 0) return [];
    const full = await this.db.kysely
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .select(['d.id', 'd.webhook_id', 'd.payload', 'd.attempts', 'd.retry_from', 'w.url', 'w.secret'])
      .where(
        'd.id',
        'in',
        rows.map((r) => r.id),
      )
      .where('d.claimed_by', '=', claim)
      .execute();
    return full.map((r) => ({
      id: r.id,
      webhook_id: r.webhook_id,
      url: r.url,
      secret: this.text.read(r.secret, `webhooks:${r.webhook_id}:secret`),
      payload: this.text.read(r.payload, `webhook_deliveries:${r.id}:payload`),
      attempts: Number(r.attempts),
      retry_from: r.retry_from,
      claim,
    }));
  }

  /** Records an attempt under the claim that holds it; false when the claim was lost (its lease ended). */
  async finish(delivery: Pick<DueDelivery, 'id' | 'claim'>, outcome: AttemptOutcome): Promise<boolean> {
    const state = outcome.delivered ? 'delivered' : outcome.nextAttemptAt === null ? 'failed' : 'pending';
    const res = await this.db.kysely
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        state,
        attempts: eb('attempts', '+', 1),
        last_status: outcome.status,
        last_error: outcome.error === null ? null : outcome.error.slice(0, 200),
        last_attempt_at: outcome.at.toISOString(),
        next_attempt_at: state === 'pending' ? outcome.nextAttemptAt!.toISOString() : null,
        claimed_by: null,
        lease_until: null,
      }))
      .where('id', '=', delivery.id)
      .where('claimed_by', '=', delivery.claim)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Deletes delivered and failed deliveries last attempted before the instant (the log keeps 30 days by default). */
  async purgeFinishedBefore(instant: Date): Promise<number> {
    const res = await this.db.kysely
      .deleteFrom('webhook_deliveries')
      .where('state', 'in', ['delivered', 'failed'])
      .where('last_attempt_at', '<', instant.toISOString())
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  renew(claims: readonly string[], leaseUntil: Date): Promise<void> {
    return renewLeases(this.db, 'webhook_deliveries', claims, leaseUntil);
  }

  release(claims: readonly string[]): Promise<void> {
    return releaseLeases(this.db, 'webhook_deliveries', claims);
  }
}

/**
 * Monitors in the store (docs/monitoring.md). The due time is a column, so a restart loses no
 * scheduled check; a check is claimed under a lease (FOR UPDATE SKIP LOCKED on PostgreSQL), so
 * instances sharing the database never make one scheduled check twice; a payer's pacing slot is
 * one row every instance takes in turn. A check's result, its next due time and the events it
 * raises are written in one transaction under the claim.
 */
import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { CoverageSnapshot } from '../domain/monitoring/coverage-diff.ts';
import type { LastCheck } from '../domain/monitoring/last-check.ts';
import type { MonitorSchedule } from '../domain/monitoring/schedule.ts';
import type { Db } from './db.ts';
import type { Database } from './schema.ts';
import { releaseLeases, renewLeases } from './leases.ts';
import type { MonitorTable } from './monitor-tables.ts';
import { SealedText } from './sealed-text.ts';
import type { WebhookEvent, WebhookStore } from './webhooks.ts';
import type { Mode } from '../domain/mode.ts';
import { dateOf, systemClock } from '../domain/clock.ts';

/**
 * Monitors sealed, or inserted in one transaction, between two turns handed to the event loop when
 * createWithin is given a pause; a larger upload is staged (createWithin).
 */
const MONITORS_PER_SLICE = 250;
/** How long a large upload's writing may take before an upload still staged counts as abandoned. */
export const STAGING_MS = 60 * 60_000;

/** What a monitor checks: the estimate request, and the caller's own label. */
export interface MonitorRequest {
  request: Record<string, unknown>;
  reference: string | null;
}

export interface StoredMonitor {
  id: string;
  owner_id: string;
  key_id: string;
  env: Mode;
  payer_key: string;
  /** null when sealed under another data key. */
  what: MonitorRequest | null;
  schedule: MonitorSchedule;
  created_at: string;
  next_check_at: string | null;
  checks: number;
  last_check: LastCheck | null;
  snapshot: CoverageSnapshot | null;
}

export interface ClaimedMonitor extends StoredMonitor {
  claim: string;
}

export interface CheckRecord {
  last: LastCheck;
  /** The new snapshot; null keeps the one there is (the check had no coverage to compare). */
  snapshot: CoverageSnapshot | null;
  events: WebhookEvent[];
}

export interface NewMonitor {
  ownerId: string;
  keyId: string;
  env: Mode;
  payerKey: string;
  what: MonitorRequest;
  schedule: MonitorSchedule;
  firstCheckAt: Date;
}

export const newMonitorId = () => `mon_${randomBytes(12).toString('hex')}`;
const newUploadId = () => `mup_${randomBytes(12).toString('hex')}`;

/** A monitor whose bulk upload is still being written (createWithin) is neither visible nor checked. */
const VISIBLE = sql<boolean>`(monitors.upload_id is null or not exists (select 1 from monitor_uploads u where u.id = monitors.upload_id))`;

/**
 * A monitor whose owner has no live key (every key revoked) and is no active console user is not
 * checked: a revoked key's monitors stop asking payers about its patients, as its batches do.
 */
const OWNER_LIVE = sql<boolean>`(exists (select 1 from api_keys k where k.owner_id = monitors.owner_id and k.revoked_at is null)
  or exists (select 1 from users u where u.id = monitors.owner_id and u.disabled_at is null))`;

/**
 * The owner's monitors less those of its uploads being written: two counts from indexes, where
 * testing each of 10,000 monitors against its upload took some 20 ms of the event loop.
 */
async function visibleOf(db: Kysely<Database>, ownerId: string): Promise<number> {
  const n = (row: { n: number | string | bigint } | undefined) => Number(row?.n ?? 0);
  const all = await db
    .selectFrom('monitors')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  const staged = await db
    .selectFrom('monitors')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .where('upload_id', 'in', db.selectFrom('monitor_uploads').select('id').where('owner_id', '=', ownerId))
    .executeTakeFirst();
  return n(all) - n(staged);
}

export class MonitorStore {
  constructor(
    private readonly db: Db,
    private readonly webhooks: WebhookStore,
    readonly text: SealedText = new SealedText(null),
  ) {}

  private ctx = (id: string, column: 'request' | 'last_check' | 'snapshot') => `monitors:${id}:${column}`;

  private read(row: MonitorTable): StoredMonitor {
    return {
      id: row.id,
      owner_id: row.owner_id,
      key_id: row.key_id,
      env: row.env,
      payer_key: row.payer_key,
      what: this.text.readJson<MonitorRequest>(row.request, this.ctx(row.id, 'request')),
      schedule: JSON.parse(row.schedule) as MonitorSchedule,
      created_at: row.created_at,
      next_check_at: row.next_check_at,
      checks: Number(row.checks),
      last_check: this.text.readJson<LastCheck>(row.last_check, this.ctx(row.id, 'last_check')),
      snapshot: this.text.readJson<CoverageSnapshot>(row.snapshot, this.ctx(row.id, 'snapshot')),
    };
  }

  async create(input: NewMonitor, now = dateOf(systemClock)): Promise<StoredMonitor> {
    const row = this.row(input, now);
    await this.db.kysely.insertInto('monitors').values(row).execute();
    return this.read(row);
  }

  /**
   * Creates all the monitors, or none when the owner would then have more than `max`: counted and
   * made visible in one transaction, which PostgreSQL holds under a lock of the owner, so requests
   * sent at once cannot each find room for themselves. `count`: the owner's monitors when refused.
   *
   * Up to MONITORS_PER_SLICE monitors are written in that one transaction. More are written the way
   * a large batch is (store/batches.ts create): an upload record first, staged (`staged_until`), then
   * the monitors naming it in transactions of MONITORS_PER_SLICE, so other queries run between them
   * and no commit is large; while the record exists none of them is visible or checked, and deleting
   * it (counted under the lock as above) makes them all visible at once. A failure on the way deletes
   * what was written; a crash leaves a staged upload, which dropAbandoned deletes once `staged_until`
   * passes. `pause` hands the event loop a turn between slices of monitors sealed and between the
   * transactions (the server's: docs/monitoring.md).
   */
  async createWithin(
    inputs: readonly NewMonitor[],
    max: number,
    now = dateOf(systemClock),
    pause?: () => Promise<void>,
  ): Promise<{ made: StoredMonitor[] } | { count: number }> {
    const ownerId = inputs[0]?.ownerId;
    if (ownerId === undefined || inputs.some((i) => i.ownerId !== ownerId)) throw new Error('createWithin takes monitors of one owner');
    const staged = inputs.length > MONITORS_PER_SLICE;
    const uploadId = staged ? newUploadId() : null;
    const rows: MonitorTable[] = [];
    for (const [i, input] of inputs.entries()) {
      if (pause && i > 0 && i % MONITORS_PER_SLICE === 0) await pause();
      rows.push({ ...this.row(input, now), ...(uploadId ? { upload_id: uploadId } : {}) });
    }
    // As read back, without unsealing what was just sealed.
    const made = () => ({
      made: rows.map((r, i) => ({
        id: r.id,
        owner_id: r.owner_id,
        key_id: r.key_id,
        env: r.env,
        payer_key: r.payer_key,
        what: inputs[i]!.what,
        schedule: inputs[i]!.schedule,
        created_at: r.created_at,
        next_check_at: r.next_check_at,
        checks: 0,
        last_check: null,
        snapshot: null,
      })),
    });
    if (uploadId === null) {
      return this.db.kysely.transaction().execute(async (trx) => {
        const count = await this.countWithin(trx, ownerId);
        if (count + rows.length > max) return { count };
        await trx.insertInto('monitors').values(rows).execute();
        return made();
      });
    }
    // Refused before anything is written when the owner has no room already; counted again below.
    const before = await this.count(ownerId);
    if (before + rows.length > max) return { count: before };
    await this.db.kysely
      .insertInto('monitor_uploads')
      .values({ id: uploadId, owner_id: ownerId, staged_until: new Date(now.getTime() + STAGING_MS).toISOString() })
      .execute();
    let outcome: { made: StoredMonitor[] } | { count: number };
    try {
      for (let start = 0; start < rows.length; start += MONITORS_PER_SLICE) {
        if (pause) await pause();
        await this.insertMonitors(rows.slice(start, start + MONITORS_PER_SLICE));
      }
      if (pause) await pause();
      outcome = await this.db.kysely.transaction().execute(async (trx) => {
        const count = await this.countWithin(trx, ownerId);
        if (count + rows.length > max) return { count };
        // Visible, and checked, from here: unless dropAbandoned took the upload meanwhile (written past staged_until).
        const res = await trx.deleteFrom('monitor_uploads').where('id', '=', uploadId).executeTakeFirst();
        if (Number(res.numDeletedRows) !== 1) throw new Error(`monitor upload ${uploadId} was abandoned before its last monitor was written`);
        return made();
      });
    } catch (err) {
      await this.discard(uploadId, pause).catch(() => {});
      throw err;
    }
    if ('count' in outcome) await this.discard(uploadId, pause);
    return outcome;
  }

  /** The owner's visible monitors, in a transaction: on PostgreSQL under a lock of the owner, held until it ends. */
  private async countWithin(trx: Transaction<Database>, ownerId: string): Promise<number> {
    if (this.db.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${`monitors:${ownerId}`}))`.execute(trx);
    return visibleOf(trx, ownerId);
  }

  /** One transaction of a staged upload's monitors (a seam for tests, which fail it part way through). */
  protected async insertMonitors(rows: MonitorTable[]): Promise<void> {
    await this.db.kysely.insertInto('monitors').values(rows).execute();
  }

  /** Deletes an upload being written: its monitors, MONITORS_PER_SLICE a transaction, then its record. */
  private async discard(uploadId: string, pause?: () => Promise<void>): Promise<void> {
    for (;;) {
      const batch = this.db.kysely.selectFrom('monitors').select('id').where('upload_id', '=', uploadId).limit(MONITORS_PER_SLICE);
      const res = await this.db.kysely.deleteFrom('monitors').where('id', 'in', batch).executeTakeFirst();
      if (Number(res.numDeletedRows) < MONITORS_PER_SLICE) break;
      if (pause) await pause();
    }
    await this.db.kysely.deleteFrom('monitor_uploads').where('id', '=', uploadId).execute();
  }

  /** Deletes the uploads whose writing never finished (the process stopped part way), and their monitors, once their staging time has passed. */
  async dropAbandoned(now = dateOf(systemClock)): Promise<number> {
    const abandoned = await this.db.kysely.selectFrom('monitor_uploads').select('id').where('staged_until', '<', now.toISOString()).execute();
    for (const { id } of abandoned) await this.discard(id);
    return abandoned.length;
  }

  private row(input: NewMonitor, now: Date): MonitorTable {
    const id = newMonitorId();
    return {
      id,
      owner_id: input.ownerId,
      key_id: input.keyId,
      env: input.env,
      payer_key: input.payerKey,
      request: this.text.write(JSON.stringify(input.what), this.ctx(id, 'request')),
      schedule: JSON.stringify(input.schedule),
      created_at: now.toISOString(),
      next_check_at: input.firstCheckAt.toISOString(),
      claimed_by: null,
      lease_until: null,
      checks: 0,
      last_check: null,
      snapshot: null,
    };
  }

  async get(id: string, ownerId: string): Promise<StoredMonitor | undefined> {
    const row = await this.db.kysely.selectFrom('monitors').selectAll().where('id', '=', id).where('owner_id', '=', ownerId).where(VISIBLE).executeTakeFirst();
    return row ? this.read(row) : undefined;
  }

  async list(ownerId: string, offset: number, limit: number): Promise<StoredMonitor[]> {
    const rows = await this.db.kysely
      .selectFrom('monitors')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where(VISIBLE)
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => this.read(r));
  }

  /**
   * A page of the owner's monitors in an order read from what they hold: the soonest appointment on
   * or after `today` first (schedules are stored in clear), or the latest check that found changes
   * first (last_check is sealed, so each is opened). Monitors without one come last, oldest first.
   * An owner has at most COVERAGE_MONITOR_MAX_PER_KEY monitors, and only the page is read whole.
   */
  async listOrdered(ownerId: string, sort: 'appointment' | 'change', today: string, offset: number, limit: number): Promise<StoredMonitor[]> {
    const keys = await this.db.kysely
      .selectFrom('monitors')
      .select(['id', 'created_at', 'schedule', 'last_check'])
      .where('owner_id', '=', ownerId)
      .where(VISIBLE)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const keyed = keys.map((k, i) => {
      let key: string | null;
      if (sort === 'appointment') {
        const dates = (JSON.parse(k.schedule) as MonitorSchedule).appointments ?? [];
        key = dates.filter((d) => d >= today).sort()[0] ?? null;
      } else {
        const last = this.text.readJson<LastCheck>(k.last_check, this.ctx(k.id, 'last_check'));
        key = last?.timeline?.at(-1)?.at ?? (last?.changes.length ? last.at : null);
      }
      return { id: k.id, key, i };
    });
    const direction = sort === 'appointment' ? 1 : -1;
    keyed.sort((a, b) => {
      if (a.key === b.key) return a.i - b.i;
      if (a.key === null) return 1;
      if (b.key === null) return -1;
      return a.key < b.key ? -direction : direction;
    });
    const ids = keyed.slice(offset, offset + limit).map((k) => k.id);
    if (ids.length === 0) return [];
    const rows = await this.db.kysely.selectFrom('monitors').selectAll().where('id', 'in', ids).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [this.read(row)] : [];
    });
  }

  /** The owner's monitors, those of an upload being written left out. */
  async count(ownerId: string): Promise<number> {
    return visibleOf(this.db.kysely, ownerId);
  }

  /** Deletes the monitor, its snapshot with it. */
  async delete(id: string, ownerId: string): Promise<boolean> {
    const res = await this.db.kysely.deleteFrom('monitors').where('id', '=', id).where('owner_id', '=', ownerId).where(VISIBLE).executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }

  /** Payers with scheduled checks of this environment due now and not held by a live claim. */
  async duePayers(env: Mode, now: Date): Promise<string[]> {
    const at = now.toISOString();
    const rows = await this.db.kysely
      .selectFrom('monitors')
      .select('payer_key')
      .distinct()
      .where('env', '=', env)
      .where('next_check_at', '<=', at)
      .where((w) => w.or([w('claimed_by', 'is', null), w('lease_until', '<', at)]))
      .where(OWNER_LIVE)
      .where(VISIBLE)
      .execute();
    return rows.map((r) => r.payer_key);
  }

  /**
   * Takes the payer's pacing slot: true when no check to the payer started within `intervalMs`
   * (on any instance), and the slot is now this caller's.
   */
  async takePacing(payerKey: string, intervalMs: number, now: Date): Promise<boolean> {
    if (intervalMs <= 0) return true;
    const next = new Date(now.getTime() + intervalMs).toISOString();
    const res = await this.db.kysely
      .insertInto('monitor_pacing')
      .values({ payer_key: payerKey, next_at: next })
      .onConflict((oc) => oc.column('payer_key').doUpdateSet({ next_at: next }).where('monitor_pacing.next_at', '<=', now.toISOString()))
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  /** Claims up to `limit` due monitors of the payer and environment, earliest due first. */
  async claimDue(env: Mode, payerKey: string, limit: number, claim: string, leaseUntil: Date, now: Date): Promise<ClaimedMonitor[]> {
    const at = now.toISOString();
    const lease = leaseUntil.toISOString();
    const { rows } =
      this.db.dialect === 'postgres'
        ? await sql<MonitorTable>`
            with picked as (
              select id from monitors
              where env = ${env} and payer_key = ${payerKey} and next_check_at <= ${at} and (claimed_by is null or lease_until < ${at})
                and ${OWNER_LIVE} and ${VISIBLE}
              order by next_check_at, id limit ${limit}
              for update skip locked)
            update monitors m set claimed_by = ${claim}, lease_until = ${lease}
            from picked p where m.id = p.id
            returning m.*`.execute(this.db.kysely)
        : await sql<MonitorTable>`
            update monitors set claimed_by = ${claim}, lease_until = ${lease}
            where id in (
              select id from monitors
              where env = ${env} and payer_key = ${payerKey} and next_check_at <= ${at} and (claimed_by is null or lease_until < ${at})
                and ${OWNER_LIVE} and ${VISIBLE}
              order by next_check_at, id limit ${limit})
            returning *`.execute(this.db.kysely);
    return rows.map((r) => ({ ...this.read(r), claim }));
  }

  /**
   * Writes a check: the summary, the snapshot, the events' deliveries, and (for a scheduled check,
   * under its claim) the next due time, in one transaction. False when the claim was lost or the
   * monitor deleted meanwhile: nothing is written, no event is queued.
   */
  async recordCheck(
    monitor: Pick<StoredMonitor, 'id' | 'owner_id'>,
    record: CheckRecord,
    scheduled: { claim: string; nextCheckAt: Date | null } | null,
  ): Promise<boolean> {
    return this.db.kysely.transaction().execute(async (trx) => {
      let update = trx
        .updateTable('monitors')
        .set((eb) => ({
          checks: eb('checks', '+', 1),
          last_check: this.text.write(JSON.stringify(record.last), this.ctx(monitor.id, 'last_check')),
          ...(record.snapshot ? { snapshot: this.text.write(JSON.stringify(record.snapshot), this.ctx(monitor.id, 'snapshot')) } : {}),
          ...(scheduled ? { next_check_at: scheduled.nextCheckAt?.toISOString() ?? null, claimed_by: null, lease_until: null } : {}),
        }))
        .where('id', '=', monitor.id);
      if (scheduled) update = update.where('claimed_by', '=', scheduled.claim);
      const res = await update.executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return false;
      for (const event of record.events) await this.webhooks.enqueue(trx, monitor.owner_id, event);
      return true;
    });
  }

  renew(claims: readonly string[], leaseUntil: Date): Promise<void> {
    return renewLeases(this.db, 'monitors', claims, leaseUntil);
  }

  release(claims: readonly string[]): Promise<void> {
    return releaseLeases(this.db, 'monitors', claims);
  }
}

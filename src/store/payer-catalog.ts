/**
 * The payer catalog in the store: imported payers and their IDs per connection (coverage payers
 * import). Eligibility is kept per route, as each connection's list gives it; the payer's is derived.
 * An imported record whose ID is already an alias or a connection's payer ID of a catalog payer
 * updates that payer rather than adding a second one.
 */
import { effectiveEligibility, PayerIdIndex, type Eligibility } from '../domain/payer-ids.ts';
import type { Db } from './db.ts';
import { dateOf, systemClock } from '../domain/clock.ts';

export type { Eligibility } from '../domain/payer-ids.ts';

export interface CatalogRoute {
  /** The connection's own payer ID (2100A NM109). */
  payer_id: string;
  /** What that connection's payer list says of eligibility inquiries for this payer. */
  eligibility: Eligibility;
}

export interface CatalogPayer {
  payer_id: string;
  name: string;
  aliases: string[];
  /** Derived: supported if any route is, else enrollment_required if any route is, else not_supported (the payer's own without routes). */
  eligibility: Eligibility;
  medicaid_state: string | null;
  /** connection name -> that connection's payer ID and eligibility. */
  routes: Record<string, CatalogRoute>;
}

/** One record of an imported list: the payer as the list gives it, and its ID at the connection imported for (null when the list has none). */
export interface CatalogRecord {
  entry: Omit<CatalogPayer, 'routes'>;
  connection_payer_id: string | null;
}

/** The list names payers the catalog cannot tell apart: nothing was written. */
export class CatalogConflictError extends Error {
  constructor(readonly problems: string[]) {
    super(`${problems.length} record(s) match more than one catalog payer`);
    this.name = 'CatalogConflictError';
  }
}

interface Held {
  payer_id: string;
  name: string;
  aliases: string[];
  eligibility: Eligibility;
  medicaid_state: string | null;
  routes: Map<string, CatalogRoute>;
  stored: boolean;
}

/** IDs are matched in any case: an alias spelled like the payer's ID or an earlier alias adds nothing. */
function withoutCaseRepeats(payerId: string, aliases: readonly string[]): string[] {
  const seen = new Set([payerId.toUpperCase()]);
  return aliases.filter((a) => !seen.has(a.toUpperCase()) && seen.add(a.toUpperCase()));
}

export class PayerCatalogStore {
  constructor(private readonly db: Db) {}

  /**
   * Adds or updates payers and their route through `connection`, all or nothing. A record goes to the
   * catalog payer of its payer_id (any case); else to the one payer whose alias or connection payer ID
   * its payer_id or connection payer ID is (merged: the record's ID becomes an alias, the payer keeps
   * its name); else it is added. A record matching two payers, or two records matching one payer under
   * different IDs, throws CatalogConflictError and nothing is written.
   */
  async upsert(records: readonly CatalogRecord[], connection: string, now = dateOf(systemClock)): Promise<{ added: number; updated: number; merged: number }> {
    const counts = { added: 0, updated: 0, merged: 0 };
    await this.db.kysely.transaction().execute(async (tx) => {
      const [rows, routeRows] = await Promise.all([
        tx.selectFrom('payer_catalog').selectAll().execute(),
        tx.selectFrom('payer_catalog_routes').selectAll().execute(),
      ]);
      const held = new Map<string, Held>();
      for (const p of rows) held.set(p.payer_id, { ...p, aliases: JSON.parse(p.aliases) as string[], routes: new Map(), stored: true });
      for (const r of routeRows) held.get(r.payer_id)?.routes.set(r.connection, { payer_id: r.connection_payer_id, eligibility: r.eligibility });
      // The catalog as it stood before this list: the same index the network answers payer_id with.
      // Payer IDs first, so an ID that is a payer's own names that payer.
      const ids = new PayerIdIndex();
      for (const p of held.values()) ids.add(p.payer_id, p.payer_id);
      for (const p of held.values()) for (const a of p.aliases) ids.add(a, p.payer_id);
      for (const p of held.values()) for (const r of p.routes.values()) ids.add(r.payer_id, p.payer_id);

      const problems: string[] = [];
      const targets = records.map((r) => {
        const id = r.entry.payer_id;
        const own = held.has(id) ? id : ids.get(id);
        if (own !== undefined && own.toUpperCase() === id.toUpperCase()) return own;
        const matched = [...new Set([...ids.all(id), ...(r.connection_payer_id === null ? [] : ids.all(r.connection_payer_id))])];
        if (matched.length > 1) problems.push(`${id}: matches catalog payers ${matched.join(' and ')} (by alias or a connection's payer ID)`);
        return matched[0] ?? null;
      });
      // Two records under different IDs merging into one payer would each set its route through this connection.
      const firstFor = new Map<string, string>();
      records.forEach((r, i) => {
        const target = targets[i];
        if (target === null || target === undefined) return;
        const first = firstFor.get(target);
        if (first === undefined) firstFor.set(target, r.entry.payer_id);
        else if (first !== r.entry.payer_id) problems.push(`${first} and ${r.entry.payer_id}: both match catalog payer ${target}`);
      });
      if (problems.length > 0) throw new CatalogConflictError(problems);

      for (const [i, { entry: e, connection_payer_id }] of records.entries()) {
        let p = held.get(targets[i] ?? e.payer_id);
        if (!p) {
          p = { ...e, aliases: [], routes: new Map(), stored: false };
          held.set(e.payer_id, p);
          counts.added++;
        } else if (p.payer_id === e.payer_id) {
          Object.assign(p, { name: e.name, medicaid_state: e.medicaid_state });
          counts.updated++;
        } else {
          p.medicaid_state ??= e.medicaid_state;
          counts.merged++;
        }
        p.aliases = withoutCaseRepeats(p.payer_id, [...p.aliases, e.payer_id, ...e.aliases]);
        if (connection_payer_id !== null) p.routes.set(connection, { payer_id: connection_payer_id, eligibility: e.eligibility });
        p.eligibility = effectiveEligibility([...p.routes.values()].map((r) => r.eligibility)) ?? e.eligibility;
        const row = {
          name: p.name,
          aliases: JSON.stringify(p.aliases),
          eligibility: p.eligibility,
          medicaid_state: p.medicaid_state,
          updated_at: now.toISOString(),
        };
        if (p.stored) await tx.updateTable('payer_catalog').set(row).where('payer_id', '=', p.payer_id).execute();
        else
          await tx
            .insertInto('payer_catalog')
            .values({ payer_id: p.payer_id, ...row })
            .execute();
        p.stored = true;
        if (connection_payer_id !== null) {
          await tx.deleteFrom('payer_catalog_routes').where('payer_id', '=', p.payer_id).where('connection', '=', connection).execute();
          await tx.insertInto('payer_catalog_routes').values({ payer_id: p.payer_id, connection, connection_payer_id, eligibility: e.eligibility }).execute();
        }
      }
    });
    return counts;
  }

  async list(): Promise<CatalogPayer[]> {
    const [payers, routes] = await Promise.all([
      this.db.kysely.selectFrom('payer_catalog').selectAll().orderBy('payer_id').execute(),
      this.db.kysely.selectFrom('payer_catalog_routes').selectAll().orderBy('connection').execute(),
    ]);
    const byPayer = new Map<string, Record<string, CatalogRoute>>();
    for (const r of routes)
      byPayer.set(r.payer_id, { ...byPayer.get(r.payer_id), [r.connection]: { payer_id: r.connection_payer_id, eligibility: r.eligibility } });
    return payers.map((p) => {
      const own = byPayer.get(p.payer_id) ?? {};
      return {
        payer_id: p.payer_id,
        name: p.name,
        aliases: JSON.parse(p.aliases) as string[],
        eligibility: effectiveEligibility(Object.values(own).map((r) => r.eligibility)) ?? p.eligibility,
        medicaid_state: p.medicaid_state,
        routes: own,
      };
    });
  }
}

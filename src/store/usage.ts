/** Usage from the audit trail: checks counted by key, endpoint and outcome. */
import type { Db } from './db.ts';

export interface UsageFilter {
  /** ISO 8601 instant; only checks at or after it count. */
  since?: string | undefined;
  keyId?: string | undefined;
}

export interface UsageRow {
  key_id: string;
  key_name: string | null;
  endpoint: string;
  status: number;
  error_code: string | null;
  /** `OK`, or the error code the check answered with. */
  outcome: string;
  count: number;
}

export async function usageCounts(db: Db, filter: UsageFilter = {}): Promise<UsageRow[]> {
  let query = db.kysely
    .selectFrom('audit_events as a')
    .leftJoin('api_keys as k', 'k.id', 'a.key_id')
    // A person's checks in the console run under their user id (http/auth/console-auth.ts).
    .leftJoin('users as u', 'u.id', 'a.key_id')
    .select((eb) => [
      'a.key_id',
      'k.name as key_name',
      'u.username',
      'a.endpoint',
      'a.status',
      'a.error_code',
      eb.fn.countAll<number | string | bigint>().as('count'),
    ])
    .groupBy(['a.key_id', 'k.name', 'u.username', 'a.endpoint', 'a.status', 'a.error_code']);
  // Sign-ins and sign-outs share the trail (http/auth/console-audit.ts) but are not checks.
  query = query.where('a.endpoint', 'not in', ['console_sign_in', 'console_sign_in_failed', 'console_sign_out']);
  if (filter.since) query = query.where('a.at', '>=', filter.since);
  if (filter.keyId) query = query.where('a.key_id', '=', filter.keyId);
  const rows = await query.execute();
  const counted = rows.map((r) => ({
    key_id: r.key_id,
    key_name: r.key_name ?? (r.username ? `console user ${r.username}` : null),
    endpoint: r.endpoint,
    status: Number(r.status),
    error_code: r.error_code,
    outcome: r.error_code ?? 'OK',
    count: Number(r.count),
  }));
  // Sorted here: the dialects order NULL error codes differently.
  const order = (r: UsageRow) => [r.key_id, r.endpoint, String(r.status).padStart(3, '0'), r.outcome].join('\u0000');
  return counted.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

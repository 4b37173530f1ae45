/**
 * A Good Faith Estimate as kept (the sealed payload of store/good-faith-estimates.ts) and as answered:
 * the content the domain assembled, its due date and the day it was given; status, overdue and the
 * versions are the row's and today's (docs/good-faith-estimate.md).
 */
import { randomBytes } from 'node:crypto';
import { isOverdue, type Due, type GfeContent, type GfeVersion } from '../../domain/gfe/index.ts';
import type { GfeStatus, GoodFaithEstimate, GoodFaithEstimateList } from '../../domain/schemas/good-faith-estimates.ts';

export interface GfePayload {
  content: GfeContent;
  due: Due;
  given_on: string | null;
}

/** A stored version as the store gives it back (store/good-faith-estimates.ts GfeRow), its content opened. */
export interface GfeRow<P> extends GfeVersion {
  payload: P | null;
}

export const newGfeId = () => `gfe_${randomBytes(12).toString('hex')}`;

/** The client's identity as the keyed hash takes it (member-hash.ts): no member ID, the name and date of birth. */
export const clientIdentity = (c: GfeContent['client']) => ({ member_id: null, first_name: c.first_name, last_name: c.last_name, dob: c.dob });

export function gfeAnswer(row: GfeRow<GfePayload>, payload: GfePayload, versions: GoodFaithEstimate['versions'], today: string): GoodFaithEstimate {
  const status = row.status as GfeStatus;
  return {
    id: row.id,
    version: row.version,
    status,
    created_at: row.created_at,
    given_at: row.given_at,
    given_on: payload.given_on,
    due: payload.due,
    overdue: isOverdue(status, payload.due.date, today),
    ...payload.content,
    versions,
  };
}

type ListEntry = GoodFaithEstimateList['estimates'][number];

/** Overdue first, then by due date (none last), then the newest. */
export function sortedList(entries: ListEntry[]): ListEntry[] {
  return entries.sort(
    (a, b) =>
      Number(b.overdue) - Number(a.overdue) ||
      (a.due_date ?? '9999').localeCompare(b.due_date ?? '9999') ||
      b.created_at.localeCompare(a.created_at) ||
      a.id.localeCompare(b.id),
  );
}

export function listEntry(row: GfeRow<GfePayload>, today: string): ListEntry | null {
  if (row.payload === null) return null;
  const c = row.payload.content;
  return {
    id: row.id,
    version: row.version,
    status: row.status as GfeStatus,
    client_name: `${c.client.first_name} ${c.client.last_name}`,
    service_date: row.service_date,
    due_date: row.due_date,
    overdue: isOverdue(row.status, row.due_date, today),
    total_cents: row.total_cents,
    created_at: row.created_at,
  };
}

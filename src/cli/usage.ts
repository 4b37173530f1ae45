/** `coverage usage`: checks from the audit trail, counted by key, endpoint and outcome. */
import { type Command, InvalidArgumentError } from 'commander';
import type { Db } from '../store/db.ts';
import { usageCounts, type UsageFilter } from '../store/usage.ts';
import { type CliIo, formatTable, processIo, withConfiguredStore } from './io.ts';

/** A date (YYYY-MM-DD, midnight UTC) or an ISO 8601 instant, as the ISO instant the audit trail stores. */
export function parseSince(value: string): string {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const text = dateOnly ? `${value}T00:00:00Z` : value;
  const time = /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : NaN;
  // Date.parse rolls 2025-02-31 over into March; a date that does not round-trip is not a date.
  if (Number.isNaN(time) || (dateOnly && new Date(time).toISOString().slice(0, 10) !== value))
    throw new InvalidArgumentError('expected a date such as 2025-01-31 or an ISO 8601 time');
  return new Date(time).toISOString();
}

export async function reportUsage(
  db: Db,
  options: { since?: string | undefined; key?: string | undefined; json?: boolean | undefined },
  io: CliIo,
): Promise<number> {
  const filter: UsageFilter = { since: options.since, keyId: options.key };
  const rows = await usageCounts(db, filter);
  if (options.json) {
    io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0) {
    io.stdout('No checks recorded.\n');
    return 0;
  }
  const table = rows.map((r) => [r.key_id, r.key_name ?? '-', r.endpoint, String(r.status), r.outcome, String(r.count)]);
  const total = rows.reduce((sum, r) => sum + r.count, 0);
  io.stdout(formatTable(['KEY', 'NAME', 'ENDPOINT', 'STATUS', 'OUTCOME', 'CHECKS'], [...table, ['total', '', '', '', '', String(total)]]));
  return 0;
}

export function registerUsageCommand(program: Command, io: CliIo = processIo): void {
  program
    .command('usage')
    .description('count checks by key, endpoint and outcome (from the audit trail)')
    .option('--since <date>', 'only checks at or after this date (YYYY-MM-DD, UTC) or ISO 8601 time', parseSince)
    .option('--key <id>', 'only this key')
    .option('--json', 'JSON instead of a table')
    .action((options: { since?: string; key?: string; json?: boolean }) => withConfiguredStore((db) => reportUsage(db, options, io)));
}

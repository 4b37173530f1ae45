/**
 * `coverage fees import FILE.csv --key ID` and `coverage fees list --key ID`: a practice's fee schedule,
 * per API key (its owner: a rotated key keeps the schedule), in the store (same as serve). A Good Faith
 * Estimate's service sent without a charge takes the schedule's (docs/good-faith-estimate.md).
 */
import { isoNow, systemClock, type Clock } from '../domain/clock.ts';
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { parseFeeSchedule } from '../formats/fee-schedule.ts';
import type { Db } from '../store/db.ts';
import { GfeStore } from '../store/good-faith-estimates.ts';
import { KeyStore, ownerOf } from '../store/keys.ts';
import { type CliIo, formatTable, processIo, withConfiguredStore } from './io.ts';

const dollars = (cents: number) => `$${Math.floor(cents / 100).toLocaleString('en-US')}.${String(cents % 100).padStart(2, '0')}`;

async function ownerOfKey(db: Db, keyId: string, io: CliIo, command: string): Promise<string | null> {
  const key = await new KeyStore(db).get(keyId);
  if (!key) {
    io.stderr(`coverage fees ${command}: no API key ${keyId} (see coverage keys list)\n`);
    return null;
  }
  return ownerOf(key);
}

/** Replaces the key's schedule with the file's rows; 1 (nothing imported) when any row is bad, each named. */
export async function importFees(db: Db, keyId: string, text: string, io: CliIo, clock: Clock = systemClock): Promise<number> {
  const owner = await ownerOfKey(db, keyId, io, 'import');
  if (!owner) return 2;
  const { rows, problems } = parseFeeSchedule(text);
  if (problems.length > 0) {
    for (const p of problems) io.stderr(p.line > 0 ? `line ${p.line}: ${p.message}\n` : `${p.message}\n`);
    io.stderr(`Nothing imported: ${problems.length} problem${problems.length === 1 ? '' : 's'}. Fix the file and import it again.\n`);
    return 1;
  }
  const count = await new GfeStore(db).importFees(owner, rows, isoNow(clock));
  io.stderr(`Imported ${count} fee${count === 1 ? '' : 's'} for key ${keyId}; they replace the schedule it had.\n`);
  return 0;
}

export async function listFees(db: Db, keyId: string, io: CliIo): Promise<number> {
  const owner = await ownerOfKey(db, keyId, io, 'list');
  if (!owner) return 2;
  const rows = await db.kysely
    .selectFrom('fee_schedule')
    .select(['code', 'modifier', 'charge_cents'])
    .where('key_id', '=', owner)
    .orderBy('code')
    .orderBy('modifier')
    .execute();
  io.stdout(
    formatTable(
      ['CODE', 'MODIFIER', 'CHARGE'],
      rows.map((r) => [r.code, r.modifier || '-', dollars(r.charge_cents)]),
    ),
  );
  return 0;
}

export function registerFeesCommands(program: Command): void {
  const fees = program
    .command('fees')
    .description(
      "a practice's fee schedule per API key, for Good Faith Estimates: import a CSV (code, modifier, charge in dollars), list (same store as serve)",
    );
  fees
    .command('import')
    .description("replace the key's fee schedule with a CSV: a header naming code, modifier (optional) and charge (dollars)")
    .argument('<file>', 'the CSV file')
    .requiredOption('--key <id>', 'the API key (its id, from coverage keys list) whose estimates use the schedule')
    .action((file: string, opts: { key: string }) => withConfiguredStore((db) => importFees(db, opts.key, readFileSync(file, 'utf8'), processIo)));
  fees
    .command('list')
    .description("the key's fee schedule")
    .requiredOption('--key <id>', 'the API key (its id, from coverage keys list)')
    .action((opts: { key: string }) => withConfiguredStore((db) => listFees(db, opts.key, processIo)));
}

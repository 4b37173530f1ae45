/** What every payer-list format of `coverage payers import` reads into, and the checks they share. */
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import type { CatalogRecord, Eligibility } from '../../store/payer-catalog.ts';

/** A payer as the list gives it, and its ID at the connection imported for (null when the list does not carry it). */
export type ImportedPayer = CatalogRecord;

export interface PayerList {
  payers: ImportedPayer[];
  /** Things left out that are not worth refusing the list for (an alias no caller could send), for the operator. */
  notes: string[];
}

/** Our payer_id: what the catalog and the directory key payers by. */
export const PAYER_ID = /^[A-Za-z0-9._-]{1,80}$/;
/** An alias or a connection's own payer ID (Availity's, Stedi's...): what 2100A NM109 carries. */
export const ROUTE_ID = /^[A-Za-z0-9._ -]{1,80}$/;
export const NAME_MAX = 200;

export const ELIGIBILITY: Record<string, Eligibility> = { supported: 'supported', enrollment_required: 'enrollment_required', not_supported: 'not_supported' };

/** Refuses the whole list when any record is bad, so an import never half-happens; names the first ten. */
export function refuseBadRecords(problems: string[], what: string): void {
  if (problems.length > 0) throw new Error(refusal(problems, what));
}

/** Why nothing was imported, naming the first ten problems. */
export function refusal(problems: readonly string[], what: string): string {
  return `nothing imported; fix these ${what}: ${problems.slice(0, 10).join('; ')}${problems.length > 10 ? ` (and ${problems.length - 10} more)` : ''}`;
}

/** The first few schema errors of a record, as `path message`; empty when it fits. */
export function schemaProblems(schema: TSchema, value: unknown): string[] {
  if (Value.Check(schema, value)) return [];
  const messages = Value.Errors(schema, value).map((e) => `${(e as { instancePath?: string }).instancePath || '/'} ${e.message}`);
  return [...new Set(messages)].slice(0, 3);
}

/**
 * Finds a payer listed twice: the store would keep only the last record, so the list is refused
 * instead, naming both records. (Availity lists a payer once per route group: its reader merges them.)
 */
export function repeatedIds(field: string): (id: string, where: string) => string | null {
  const first = new Map<string, string>();
  return (id, where) => {
    const seen = first.get(id);
    if (seen === undefined) {
      first.set(id, where);
      return null;
    }
    return `${where} repeats ${field} ${id} of ${seen} (one record per payer)`;
  };
}

/** Aliases that can serve as IDs, without the payer's own ID; the rest become a note naming the record. */
export function usableAliases(id: string, aliases: readonly string[], where: string, notes: string[]): string[] {
  const kept = [...new Set(aliases.map((a) => a.trim()).filter((a) => a !== '' && a !== id))];
  const unusable = kept.filter((a) => !ROUTE_ID.test(a));
  if (unusable.length > 0) notes.push(`${where}: skipped ${unusable.length} alias(es) that are not IDs (letters, digits, . _ - and spaces)`);
  return kept.filter((a) => ROUTE_ID.test(a));
}

/**
 * The records of a vendor's JSON payer list: the document itself when it is an array, else its
 * `key` array. `at` prefixes each record's index in problems (`items[3]`); `expected` says what the
 * list should look like when it is neither.
 */
export function listedRecords(text: string, key: string, expected: string): { at: string; items: unknown[] } {
  const json = JSON.parse(text) as unknown;
  if (Array.isArray(json)) return { at: '', items: json as unknown[] };
  const items = (json as Record<string, unknown> | null)?.[key];
  if (!Array.isArray(items)) throw new Error(expected);
  return { at: key, items: items as unknown[] };
}

/** A sample of notes for the operator: the first five and how many more. */
export function summarizeNotes(notes: readonly string[]): string {
  return `${notes.slice(0, 5).join('; ')}${notes.length > 5 ? ` (and ${notes.length - 5} more)` : ''}`;
}

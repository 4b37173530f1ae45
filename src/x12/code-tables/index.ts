/**
 * The TR3 005010X279A1 code lists the 271 reader acts on, as data (one JSON file per list, every
 * value with its effect or "ignored, because ..."): docs/estimates.md section 1.7. The reader's
 * decisions on EB03 (tier, inpatient/outpatient), EB06 (accumulator kind) and EB09/HSD01 (the unit
 * of a limit) come from these tables.
 */
import type { Segment } from '../tokenizer.ts';
import { el } from '../tokenizer.ts';
import dtp2110 from './dtp-2110.json' with { type: 'json' };
import eb01 from './eb01.json' with { type: 'json' };
import eb02 from './eb02.json' with { type: 'json' };
import eb03 from './eb03.json' with { type: 'json' };
import eb04 from './eb04.json' with { type: 'json' };
import eb06 from './eb06.json' with { type: 'json' };
import eb12 from './eb12.json' with { type: 'json' };
import iii from './iii.json' with { type: 'json' };
import quantity from './quantity.json' with { type: 'json' };

export interface CodeEntry {
  name: string;
  effect: string;
  /** EB06: what an amount with this period is (an accumulator total, remaining, met so far, or none of these). */
  kind?: 'total' | 'remaining' | 'met' | 'other';
  /** EB03: the behavioral-health specificity tier (0 MH ... 3 plan level), null when not one. */
  tier?: number | null;
  /** EB03: the care the type is limited to (inpatient rows never price an outpatient visit, and the reverse). */
  care?: 'inpatient' | 'outpatient' | null;
  /** EB09/HSD01: what a limit in it counts (visits; another unit a session uses: hours, days, units; nothing a session uses). */
  unit?: 'visits' | 'service' | 'none';
}

export interface CodeTable {
  title: string;
  source: string;
  codes: Readonly<Record<string, CodeEntry>>;
}

export const CODE_TABLE_NAMES = ['eb01', 'eb02', 'eb03', 'eb04', 'eb06', 'eb12', 'dtp-2110', 'iii', 'quantity'] as const;
export type CodeTableName = (typeof CODE_TABLE_NAMES)[number];

// JSON modules (x12/ does no I/O): the tables are part of the code's data, read once at import.
const TABLES: Readonly<Record<CodeTableName, CodeTable>> = {
  eb01,
  eb02,
  eb03: eb03 as CodeTable,
  eb04,
  eb06: eb06 as CodeTable,
  eb12,
  'dtp-2110': dtp2110,
  iii,
  quantity: quantity as CodeTable,
};

export function codeTable(name: CodeTableName): CodeTable {
  return TABLES[name];
}

/**
 * `table[code]` for a code read from a document, own keys only: code tables are plain objects, and a
 * code such as "constructor" must not find Object.prototype's.
 */
export function codeIn<T>(table: Readonly<Record<string, T>>, code: string): T | undefined {
  return Object.hasOwn(table, code) ? table[code] : undefined;
}

/** The entry of a code, or undefined when it is not in the TR3 list. */
export function codeEntry(name: CodeTableName, code: string): CodeEntry | undefined {
  return codeIn(codeTable(name).codes, code);
}

/** A code in words, e.g. "MH mental health"; an unknown code stays as sent with "(not in the TR3 list)". */
export function codeWords(name: CodeTableName, code: string): string {
  const entry = codeEntry(name, code);
  return entry ? `${code} ${entry.name.toLowerCase()}` : `${code} (not in the TR3 list)`;
}

/** Every coded element of an EB row in words beside its code: EB01, EB02, EB03 (each repetition), EB04, EB06, EB09, EB12. */
export function ebWords(seg: Segment, serviceTypes: readonly string[]): string {
  const parts: string[] = [`EB01 ${codeWords('eb01', el(seg, 1))}`];
  const add = (n: number, table: CodeTableName) => {
    const v = el(seg, n);
    if (v !== '') parts.push(`EB${String(n).padStart(2, '0')} ${codeWords(table, v)}`);
  };
  add(2, 'eb02');
  if (serviceTypes.length > 0) parts.push(`EB03 ${serviceTypes.map((t) => codeWords('eb03', t)).join(', ')}`);
  add(4, 'eb04');
  add(6, 'eb06');
  add(9, 'quantity');
  add(12, 'eb12');
  return parts.join('; ');
}

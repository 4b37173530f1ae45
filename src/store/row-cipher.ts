/**
 * Batch rows' request and result columns hold names, dates of birth, member IDs and coverage. With
 * a data key (COVERAGE_DATA_KEY) they are sealed (AES-256-GCM, data-key.ts) and bound to their
 * row and column, so a value copied to another row does not open; without one they are JSON as
 * before. Reads take either form, so rows written before a key was set stay readable.
 */
import type { DataKey } from './data-key.ts';

export type RowColumn = 'request' | 'result';

/** Sealed values start with the data key's version prefix; JSON never does. */
const SEALED = 'v1.';

export class RowCipher {
  constructor(private readonly key: Pick<DataKey, 'seal' | 'open'> | null) {}

  get sealing(): boolean {
    return this.key !== null;
  }

  write(json: string, batchId: string, rowNo: number, column: RowColumn): string {
    return this.key ? this.key.seal(json, context(batchId, rowNo, column)) : json;
  }

  /** The JSON text, or null when the value was sealed under another key (or altered). */
  read(stored: string, batchId: string, rowNo: number, column: RowColumn): string | null {
    if (!stored.startsWith(SEALED)) return stored;
    return this.key?.open(stored, context(batchId, rowNo, column)) ?? null;
  }
}

const context = (batchId: string, rowNo: number, column: RowColumn) => `batch_rows:${batchId}:${rowNo}:${column}`;

export const PLAIN_ROWS = new RowCipher(null);

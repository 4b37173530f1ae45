/** The messages between reader.ts and the worker thread that reads 835s (read-worker.ts). */
import type { X12Error } from '../../x12/result.ts';
import type { Claim, Remittance } from '../../x12/remittance/types.ts';

/** Claims per message: a few milliseconds of copying each on the receiving event loop. */
export const CLAIMS_PER_MESSAGE = 200;

/** A file to read, or the reader's word that it took the last piece of one (the worker then sends the next). */
export type ToReader = { type: 'read'; id: number; text: string } | { type: 'next'; id: number };

export type ReadReply =
  | { id: number; type: 'failed'; error: X12Error }
  /** A transaction set's remittance, its claims following. */
  | { id: number; type: 'set'; set: number; remittance: Remittance }
  | { id: number; type: 'claims'; set: number; claims: Claim[] }
  | { id: number; type: 'done'; warnings: string[] };

/**
 * The worker thread's side of reader.ts: reads each 835 sent to it and posts the result back in
 * pieces (each remittance without its claims, then its claims CLAIMS_PER_MESSAGE at a time), the next
 * piece only once the reader has taken the last: messages that arrive together are all copied in one
 * turn of the receiving event loop, so a whole file sent at once would hold it as long as one message.
 */
import { parentPort } from 'node:worker_threads';
import { readRemittances } from '../../x12/remittance/read-835.ts';
import { CLAIMS_PER_MESSAGE, type ReadReply, type ToReader } from './read-messages.ts';

const port = parentPort!;
/** The pieces of each file read, not yet taken. */
const outgoing = new Map<number, ReadReply[]>();

function piecesOf(id: number, text: string): ReadReply[] {
  const read = readRemittances(text);
  if (!read.ok) return [{ id, type: 'failed', error: read.error }];
  const pieces: ReadReply[] = [];
  for (const [set, rem] of read.value.entries()) {
    pieces.push({ id, type: 'set', set, remittance: { ...rem, claims: [] } });
    for (let i = 0; i < rem.claims.length; i += CLAIMS_PER_MESSAGE)
      pieces.push({ id, type: 'claims', set, claims: rem.claims.slice(i, i + CLAIMS_PER_MESSAGE) });
  }
  pieces.push({ id, type: 'done', warnings: read.warnings });
  return pieces;
}

function sendNext(id: number): void {
  const pieces = outgoing.get(id);
  const piece = pieces?.shift();
  if (!piece) return;
  if (pieces!.length === 0) outgoing.delete(id);
  port.postMessage(piece);
}

port.on('message', (message: ToReader) => {
  if (message.type === 'read') outgoing.set(message.id, piecesOf(message.id, message.text));
  sendNext(message.id);
});

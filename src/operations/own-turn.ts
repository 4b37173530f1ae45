/**
 * A turn of the event loop of the caller's own: callers waiting at once are let through one per
 * turn, in order, where a bare setImmediate lets all of them through in one (it runs every callback
 * queued before its phase). A runner's checks start with it, so the four batch rows checked at once
 * (whose sandbox payer and SQLite answer without real I/O) do not run back to back without a
 * request answered between them (docs/batch.md, "Uploads and other requests").
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

let turns: Promise<unknown> = Promise.resolve();

export const ownTurn = (): Promise<void> => {
  const mine = turns.then(() => nextTurn());
  turns = mine;
  return mine.then(() => undefined);
};

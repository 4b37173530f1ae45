/**
 * Issue 39, item 2: the batch runner's rows started at once all ran in one turn of the event loop
 * (setImmediate runs every callback queued before its phase), holding it for their sum. ownTurn
 * lets them through one a turn.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ownTurn } from '../../src/operations/own-turn.ts';

/** The turns of the event loop each waiter resumed in, counted by a callback that runs once a turn. */
async function turnsOf(wait: () => Promise<unknown>, waiters: number): Promise<number[]> {
  let turn = 0;
  let ticking = true;
  const tick = () => {
    turn++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  const seen = await Promise.all(Array.from({ length: waiters }, () => wait().then(() => turn)));
  ticking = false;
  return seen;
}

test('waiters of ownTurn resume one a turn, in order; of a bare setImmediate, all in one', async () => {
  const own = await turnsOf(ownTurn, 4);
  assert.equal(new Set(own).size, 4, `resumed in turns ${own.join(', ')}`);
  assert.deepEqual(
    own,
    [...own].sort((a, b) => a - b),
  );
  const bare = await turnsOf(() => nextTurn(), 4);
  assert.equal(new Set(bare).size, 1, `resumed in turns ${bare.join(', ')}`);
});

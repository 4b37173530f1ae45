/**
 * The server's SQLite log is checkpointed by a worker thread (src/store/checkpointer.ts), not by the
 * connection that commits: that connection's automatic checkpoint is off, and what it commits reaches
 * the database file through the worker's checkpoints.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDb } from '../../src/store/db.ts';
import { BatchStore } from '../../src/store/batches.ts';
import type { CheckpointReport } from '../../src/store/checkpointer.ts';

const batchOf = (n: number) => ({
  keyId: 'k',
  ownerId: 'k',
  env: 'sandbox' as const,
  source: 'json' as const,
  checks: Array.from({ length: n }, (_, i) => ({ endpoint: 'estimate' as const, request: { member_id: `${i}MHNA` } })),
  payerKeys: Array.from({ length: n }, () => 'P'),
});

test('with checkpointInBackground the committing connection never checkpoints, and the worker copies every frame', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'coverage-checkpointer-'));
  try {
    const db = await openDb({ dataDir: dir, checkpointInBackground: true });
    const checkpointer = db.checkpointer;
    assert.ok(checkpointer);
    assert.equal(db.sqlite?.pragma('wal_autocheckpoint', { simple: true }), 0);
    await new BatchStore(db).create(batchOf(600));
    // Every frame committed so far is in the database file after one of the worker's checkpoints.
    const done = new Promise<CheckpointReport>((resolve) => checkpointer.onCheckpoint((r) => r.checkpointed === r.log && resolve(r)));
    checkpointer.now();
    const report = await done;
    assert.ok(report.log > 0);
    await db.close();
    assert.equal(existsSync(join(dir, 'coverage.sqlite-wal')), false, 'the last connection closed removes the log');
    const again = await openDb({ dataDir: dir });
    assert.equal(again.checkpointer, null);
    assert.equal(again.sqlite?.pragma('wal_autocheckpoint', { simple: true }), 1000, 'without it SQLite checkpoints as usual');
    const rows = await again.kysely
      .selectFrom('batch_rows')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    assert.equal(Number(rows?.n), 600);
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * Issue 17 finding 10(a): the SQLite store (member data, key hashes, the generated audit HMAC key)
 * was created 0644 in a 0755 directory, readable by every local user. Now: 0700 directory, 0600
 * files, including SQLite's -wal and -shm, whatever the process umask, and older files are tightened.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openDb } from '../../src/store/db.ts';
import { auditHmacKey } from '../../src/store/member-hash.ts';

const root = mkdtempSync(join(tmpdir(), 'coverage-modes-'));
chmodSync(root, 0o755);
after(() => rmSync(root, { recursive: true, force: true }));

const mode = (path: string) => statSync(path).mode & 0o777;

async function openWrite(dataDir: string): Promise<void> {
  const db = await openDb({ dataDir });
  // A generated audit key and a write: the WAL and its index exist while the store is open.
  await auditHmacKey(db, undefined);
  for (const suffix of ['', '-wal', '-shm']) {
    const file = join(dataDir, `coverage.sqlite${suffix}`);
    assert.ok(existsSync(file), `${file} exists while open`);
    assert.equal(mode(file), 0o600, `coverage.sqlite${suffix} is 0600, was ${mode(file).toString(8)}`);
  }
  await db.close();
}

test('a new data directory is 0700 and every SQLite file in it 0600, even under a permissive umask', async () => {
  const previous = process.umask(0o002);
  try {
    const dataDir = join(root, 'new', 'data');
    await openWrite(dataDir);
    assert.equal(mode(dataDir), 0o700);
  } finally {
    process.umask(previous);
  }
});

test('a store left world-readable by an earlier version is tightened at the next start', async () => {
  const dataDir = join(root, 'old');
  mkdirSync(dataDir, { mode: 0o755 });
  chmodSync(dataDir, 0o755);
  await (await openDb({ dataDir })).close();
  for (const suffix of ['', '-wal', '-shm'])
    if (existsSync(join(dataDir, `coverage.sqlite${suffix}`))) chmodSync(join(dataDir, `coverage.sqlite${suffix}`), 0o644);
  chmodSync(dataDir, 0o755);
  await openWrite(dataDir);
  assert.equal(mode(dataDir), 0o700);
});

test("a shared directory that is not the store's own keeps its mode; the files are still 0600", async () => {
  const shared = join(root, 'shared');
  mkdirSync(shared);
  chmodSync(shared, 0o755);
  writeFileSync(join(shared, 'someone-elses-file'), 'x');
  await openWrite(shared);
  assert.equal(mode(shared), 0o755);
});

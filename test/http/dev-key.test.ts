/** Without COVERAGE_DEV_KEY a sandbox start generates a key, and only the newest start's key works. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/server/config.ts';
import { startRuntime } from '../../src/server/runtime.ts';
import { NO_SHEDDING } from '../support/no-shedding.ts';

test('a restart replaces the generated dev key', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'coverage-devkey-'));
  try {
    const config = loadConfig({ ...NO_SHEDDING, COVERAGE_DATA_DIR: dataDir, PORT: '0' });
    const first = await startRuntime(config, { logLevel: false });
    const firstKey = first.generatedDevKey;
    assert.ok(firstKey);
    assert.ok(await first.keys.verify(firstKey));
    await first.close();

    const second = await startRuntime(config, { logLevel: false });
    try {
      assert.ok(second.generatedDevKey && second.generatedDevKey !== firstKey);
      assert.ok(await second.keys.verify(second.generatedDevKey));
      assert.equal(await second.keys.verify(firstKey), null);
      const live = (await second.keys.list()).filter((k) => k.revoked_at === null);
      assert.equal(live.length, 1);
    } finally {
      await second.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

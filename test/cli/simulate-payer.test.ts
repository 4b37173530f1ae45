/**
 * `coverage simulate-payer --as stedi,optum`: several clearinghouse simulators at once, and one
 * directory whose payers route through them in the order given, for a failover rehearsal
 * (docs/going-live.md). The process is stopped with SIGTERM as a person would with Ctrl-C.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseVendors } from '../../src/cli/simulate-payer.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

test('--as takes one vendor or several, each once', () => {
  assert.deepEqual(parseVendors('stedi'), ['stedi']);
  assert.deepEqual(parseVendors('Stedi, optum,availity'), ['stedi', 'optum', 'availity']);
  assert.throws(() => parseVendors('stedi,acme'), /one or more of stedi, optum, availity/);
  assert.throws(() => parseVendors('stedi,stedi'), /twice/);
});

test('two vendors at once: both listen, and the directory routes each payer through both, in order', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'coverage-sim-'));
  const out = join(dir, 'failover.local.json');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'simulate-payer', '--as', 'stedi,optum', '--port', '0', '--directory-out', out],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const closed = once(child, 'close');
  try {
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (stdout.includes('Run the service against it')) resolve();
      });
      void closed.then(() => reject(new Error(`simulate-payer exited early:\n${stderr}`)));
    });
    assert.match(stdout, /Stedi simulator \(raw X12 eligibility\) listening on http:\/\/127\.0\.0\.1:\d+/);
    assert.match(stdout, /Optum simulator \(eligibility v3\) listening on http:\/\/127\.0\.0\.1:\d+/);
    assert.match(stdout, /each payer routes through stedi, then optum/);
    const directory = JSON.parse(readFileSync(out, 'utf8')) as {
      connections: { name: string }[];
      payers: { payer_id: string; routes: { connection: string }[] }[];
    };
    assert.deepEqual(
      directory.connections.map((c) => c.name),
      ['stedi', 'optum'],
    );
    const evergreen = directory.payers.find((p) => p.payer_id === 'SBX-EVERGREEN');
    assert.deepEqual(
      evergreen?.routes.map((r) => r.connection),
      ['stedi', 'optum'],
    );
    const stedi = stdout.match(/Stedi simulator .* on (http:\S+)/)![1]!;
    const stats = await fetch(`${stedi}/simulator/stats`);
    assert.equal(stats.status, 200);
  } finally {
    child.kill('SIGTERM');
    await closed;
    rmSync(dir, { recursive: true, force: true });
  }
});

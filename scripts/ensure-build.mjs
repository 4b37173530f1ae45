// Run before `npm start`: builds dist/ when it is missing or older than src/, so a fresh clone or an
// edited checkout starts the current code. The suites that need dist/ run it too, two test files at
// once under `npm test`: one builds under a lock (a directory beside dist/, which a build removes), and
// the other waits for it and finds dist/ current, instead of removing dist/ under the first.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { distState, ROOT } from '../bin/dist-state.js';

const LOCK = join(ROOT, '.build-lock');
/** A lock older than this was left by a build that died: it is taken over. */
const ABANDONED_MS = 10 * 60_000;

function acquire() {
  for (;;) {
    try {
      mkdirSync(LOCK);
      return;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    try {
      if (Date.now() - statSync(LOCK).mtimeMs > ABANDONED_MS) rmSync(LOCK, { recursive: true, force: true });
    } catch {
      /* released meanwhile */
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
}

if (distState() !== null) {
  acquire();
  try {
    const state = distState();
    if (state !== null) {
      console.error(`start: dist/ is ${state}; building first`);
      const build = spawnSync(process.execPath, [fileURLToPath(new URL('build.mjs', import.meta.url))], { stdio: 'inherit' });
      if (build.status !== 0) process.exitCode = build.status ?? 1;
    }
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

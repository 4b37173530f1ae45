// Run before `npm start`: builds dist/ when it is missing or older than src/, so a fresh clone or an
// edited checkout starts the current code.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { distState } from '../bin/dist-state.js';

const state = distState();
if (state !== null) {
  console.error(`start: dist/ is ${state}; building first`);
  const build = spawnSync(process.execPath, [fileURLToPath(new URL('build.mjs', import.meta.url))], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

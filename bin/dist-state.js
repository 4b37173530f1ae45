// Whether dist/ (the compiled build) is older than the TypeScript sources beside it. In an installed
// package there is no src/, so the build is what runs.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Written by scripts/build.mjs when a build succeeds, dated when that build started. */
export const BUILD_STAMP = join(ROOT, 'dist', '.build-stamp');
const INPUTS = [
  'src',
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/build.mjs',
  'scripts/bundle-cli.mjs',
  'packages/client/src',
  'packages/client/scripts',
];

export function isCheckout() {
  return existsSync(join(ROOT, 'src', 'cli', 'main.ts'));
}

function newestMtimeMs(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtimeMs(join(path, entry)));
  return newest;
}

/** Why dist/ needs a build ('missing' or 'stale'), or null when it is current or there are no sources. */
export function distState() {
  if (!isCheckout()) return null;
  if (!existsSync(BUILD_STAMP)) return 'missing';
  const built = statSync(BUILD_STAMP).mtimeMs;
  return INPUTS.some((input) => newestMtimeMs(join(ROOT, input)) > built) ? 'stale' : null;
}

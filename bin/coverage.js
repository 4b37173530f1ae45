#!/usr/bin/env node
// The `coverage` command runs the compiled build. In a checkout whose dist/ is missing or older than
// src/, it runs the TypeScript sources through tsx (a devDependency) instead, so it never runs stale code.
import { distState } from './dist-state.js';

if (distState() === null) {
  await import('../dist/cli/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}

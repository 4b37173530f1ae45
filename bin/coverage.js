#!/usr/bin/env node
// Runs the TypeScript sources through tsx, so `npx coverage` works from a checkout without a build.
import { register } from 'tsx/esm/api';
register();
await import('../src/cli/main.ts');

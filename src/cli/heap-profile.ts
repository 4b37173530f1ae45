/**
 * How V8 sizes the server's heap, set as `coverage serve` starts (NODE_OPTIONS cannot carry the
 * flag). Under load most of what an estimate allocates is garbage; with V8's defaults the old
 * generation grows up to several times its live size between full collections.
 *   small (default)  V8's --optimize-for-size: peak memory well under 200 MB at 500 connections
 *   fast             V8's defaults: about a quarter less CPU per check, 185-250 MB at that load
 * A fixed --heap-growing-percent was tried as a middle way: it caps the peak but keeps V8's memory
 * reducer from giving memory back at idle (125 MB idle instead of 88). bench/RESULTS.md has the figures.
 */
import { setFlagsFromString } from 'node:v8';

const PROFILES = {
  small: ['--optimize-for-size'],
  fast: [],
} as const satisfies Record<string, readonly string[]>;

export function applyHeapProfile(env: NodeJS.ProcessEnv = process.env): void {
  const choice = env.COVERAGE_HEAP ?? 'small';
  if (!Object.hasOwn(PROFILES, choice)) throw new Error(`COVERAGE_HEAP must be small or fast, got "${choice}"`);
  for (const flag of PROFILES[choice as keyof typeof PROFILES]) setFlagsFromString(flag);
}

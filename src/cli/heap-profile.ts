/**
 * How V8 sizes the server's heap, set as `coverage serve` starts (NODE_OPTIONS cannot carry these
 * flags). Under load most of what an estimate allocates is garbage; with V8's defaults the old
 * generation grows up to several times its live size between full collections.
 *   balanced (default)  the heap grows by at most 50 % per step (--heap-growing-percent=50)
 *   small               V8's --optimize-for-size: the least memory, about a quarter more CPU per check
 *   fast                V8's defaults: the least CPU, the most memory under many connections
 * bench/RESULTS.md has the figures.
 */
import { setFlagsFromString } from 'node:v8';

const PROFILES = {
  balanced: ['--heap-growing-percent=50'],
  small: ['--optimize-for-size'],
  fast: [],
} as const satisfies Record<string, readonly string[]>;

export function applyHeapProfile(env: NodeJS.ProcessEnv = process.env): void {
  const choice = env.COVERAGE_HEAP ?? 'balanced';
  if (!Object.hasOwn(PROFILES, choice)) throw new Error(`COVERAGE_HEAP must be balanced, small or fast, got "${choice}"`);
  for (const flag of PROFILES[choice as keyof typeof PROFILES]) setFlagsFromString(flag);
}

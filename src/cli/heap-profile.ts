/**
 * How V8 sizes the server's heap, set as `coverage serve` starts (NODE_OPTIONS cannot carry the
 * flag). Under load most of what an estimate allocates is garbage; with V8's defaults the old
 * generation grows up to several times its live size between full collections.
 *   fast (default)  V8's defaults: the least CPU; 185-250 MB at 500 sandbox connections
 *   small           V8's --optimize-for-size: about 145 MB at that load, but a quarter more CPU per
 *                   sandbox check and twice the CPU per production check (an inquiry waiting on its
 *                   payer keeps its objects past young-generation collections, and optimize-for-size
 *                   then runs full collections far more often)
 * A fixed --heap-growing-percent was tried as a middle way: it caps the peak but keeps V8's memory
 * reducer from giving memory back at idle (125 MB idle instead of 88). bench/RESULTS.md has the figures.
 */
import { setFlagsFromString } from 'node:v8';
import { parseEnv } from '../server/env.ts';
import type { Env } from '../server/env-schema.ts';

const PROFILES = {
  fast: [],
  small: ['--optimize-for-size'],
} as const satisfies Record<Env['COVERAGE_HEAP'], readonly string[]>;

/** `setFlag`: where the V8 flags go (tests see them there). */
export function applyHeapProfile(env: NodeJS.ProcessEnv = process.env, setFlag: (flag: string) => void = setFlagsFromString): void {
  for (const flag of PROFILES[parseEnv(env).COVERAGE_HEAP]) setFlag(flag);
}

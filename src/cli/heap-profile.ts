/**
 * How V8 sizes the server's heap. By default the server favours memory over speed (V8's
 * --optimize-for-size, set before the service loads: NODE_OPTIONS cannot carry this flag): under 500
 * connections its peak RSS is about half, at a CPU cost per check within the bench's noise
 * (bench/RESULTS.md). COVERAGE_V8_OPTIMIZE_FOR=speed keeps V8's defaults.
 */
import { setFlagsFromString } from 'node:v8';

export function applyHeapProfile(env: NodeJS.ProcessEnv = process.env): void {
  const choice = env.COVERAGE_V8_OPTIMIZE_FOR ?? 'size';
  if (choice === 'speed') return;
  if (choice !== 'size') throw new Error(`COVERAGE_V8_OPTIMIZE_FOR must be size or speed, got "${choice}"`);
  setFlagsFromString('--optimize-for-size');
}

/**
 * Preloaded into soaked servers (with --expose-gc): on SIGUSR2, a full collection, then the heap
 * still in use and the RSS written to BENCH_GC_FILE, so a leak shows as live memory, not garbage.
 * Plain JavaScript, so it loads into a compiled server run by plain node as well as through tsx.
 */
import { renameSync, writeFileSync } from 'node:fs';

const collect = globalThis.gc;

process.on('SIGUSR2', () => {
  collect?.();
  const { heapUsed, rss } = process.memoryUsage();
  const file = process.env.BENCH_GC_FILE ?? 'bench-gc.json';
  writeFileSync(`${file}.part`, JSON.stringify({ heapUsed, rss }));
  renameSync(`${file}.part`, file);
});

/**
 * Preloaded into a server by bench/csv-stall.ts (NODE_OPTIONS=--import): a 1 ms timer notes every
 * wait of more than 10 ms between two of its turns, with the process's CPU time during that wait,
 * and writes them to BENCH_LOOP_TURNS_FILE when the process exits. On a loaded machine the wall time
 * of a wait also counts the time other processes held the cores; its CPU time is what the server
 * itself spent (all its threads, mostly the event loop's). Plain JavaScript, so it loads into a
 * compiled server run by plain node as well as through tsx.
 */
import { writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const turns = [];
let lastAt = process.hrtime.bigint();
let lastCpu = process.cpuUsage();
const tick = () => {
  const at = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const wallMs = Number(at - lastAt) / 1e6;
  if (wallMs > 10) {
    const cpuMs = (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000;
    turns.push({ fromUs: Number(lastAt / 1000n), toUs: Number(at / 1000n), wallMs, cpuMs });
  }
  lastAt = at;
  lastCpu = cpu;
  setTimeout(tick, 1).unref();
};
if (isMainThread) setTimeout(tick, 1).unref();

if (isMainThread) process.on('exit', () => writeFileSync(process.env.BENCH_LOOP_TURNS_FILE ?? 'bench-loop-turns.json', JSON.stringify(turns)));

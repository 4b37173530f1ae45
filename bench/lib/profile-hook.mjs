/**
 * Preloaded into benchmarked servers (--import): the first SIGUSR2 starts the V8 CPU profiler,
 * the second stops it and writes the profile to BENCH_PROFILE_FILE. Only the window the bench
 * chooses is profiled, not start-up. Plain JavaScript, so it loads into a compiled server run
 * by plain node as well as into one run through tsx.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

let session = null;

process.on('SIGUSR2', () => {
  void (async () => {
    if (!session) {
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 200 });
      await session.post('Profiler.start');
      return;
    }
    const current = session;
    session = null;
    const { profile } = await current.post('Profiler.stop');
    current.disconnect();
    const file = process.env.BENCH_PROFILE_FILE ?? 'bench.cpuprofile';
    // Written aside and renamed, so the bench never reads half a file.
    writeFileSync(`${file}.part`, JSON.stringify(profile));
    renameSync(`${file}.part`, file);
  })();
});

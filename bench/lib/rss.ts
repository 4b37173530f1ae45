/** Samples a process's resident memory while some work runs. */
import { rssMb } from './processes.ts';

export interface RssSamples {
  before: number;
  peak: number;
  median: number;
  after: number;
  samples: number;
}

export async function sampleRss<T>(pid: number, work: () => Promise<T>, everyMs = 100): Promise<{ rss: RssSamples; result: T }> {
  const before = rssMb(pid);
  const samples: number[] = [];
  const timer = setInterval(() => samples.push(rssMb(pid)), everyMs);
  let result: T;
  try {
    result = await work();
  } finally {
    clearInterval(timer);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    result,
    rss: { before, peak: sorted.at(-1) ?? before, median: sorted[Math.floor(sorted.length / 2)] ?? before, after: rssMb(pid), samples: samples.length },
  };
}

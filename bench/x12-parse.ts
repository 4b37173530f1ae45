/**
 * X12 271 throughput: our tokenizer + envelope + loops + normalizer (normalize271) against
 * node-x12's parser on the same corpus in the same process. The corpus is built with build271
 * from varied Coverage values (the test arbitrary, fixed seed). Writes the
 * "## X12 parse + normalize" section of bench/RESULTS.md.
 *
 *   node --import tsx bench/x12-parse.ts [--docs N] [--seconds S] [--rounds R] [--no-write]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fc from 'fast-check';
import nodeX12 from 'node-x12';
import { build271, normalize271, readInterchange } from '../src/x12/index.ts';
import { coverageArbitrary, inquiryArbitrary } from '../test/x12/coverage-arbitrary.ts';

const { X12Parser } = nodeX12;

interface Measure {
  name: string;
  /** Documents per second of process CPU time (user + system). */
  cpuDocsPerSecond: number;
  /** Documents per second of elapsed time. */
  wallDocsPerSecond: number;
  cpuMbPerSecond: number;
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

/** Distinct 271s as they arrive from the network: flat strings, not the ropes string concatenation leaves. */
function corpus(size: number): string[] {
  const coverages = fc.sample(coverageArbitrary, { seed: 271, numRuns: size });
  const inquiries = fc.sample(inquiryArbitrary, { seed: 270, numRuns: size });
  return coverages.map((coverage, i) => {
    const text = build271(inquiries[i]!, { kind: 'coverage', coverage }, { control_number: i + 1 });
    return Buffer.from(text, 'utf8').toString('utf8');
  });
}

const cpuMicros = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** Runs `fn` over the whole corpus for about `seconds`; documents per CPU second and per elapsed second. */
function measure(docs: string[], seconds: number, fn: (doc: string) => unknown): { cpu: number; wall: number } {
  let sink = 0;
  const start = process.hrtime.bigint();
  const cpuStart = cpuMicros();
  const deadline = start + BigInt(Math.round(seconds * 1e9));
  let n = 0;
  do {
    for (const doc of docs) if (fn(doc)) sink++;
    n += docs.length;
  } while (process.hrtime.bigint() < deadline);
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = (cpuMicros() - cpuStart) / 1e6;
  if (sink < 0) console.log(sink);
  return { cpu: n / cpu, wall: n / wall };
}

const median = (xs: number[]) => {
  const s = xs.slice().sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export interface BenchResult {
  measures: Measure[];
  /** Median over rounds of normalize271 / node-x12, by CPU time and by elapsed time. */
  cpuRatio: number;
  wallRatio: number;
  corpusBytes: number;
  docs: number;
  rounds: number;
}

export function runX12ParseBench(options: { docs?: number; seconds?: number; rounds?: number } = {}): BenchResult {
  const docs = corpus(options.docs ?? 400);
  const rounds = options.rounds ?? 10;
  const perRound = (options.seconds ?? 6) / rounds / 3;
  const bytes = docs.reduce((sum, d) => sum + Buffer.byteLength(d), 0);
  const avgBytes = bytes / docs.length;

  for (const doc of docs) {
    const r = normalize271(doc);
    if (!r.ok || r.value.kind !== 'coverage') throw new Error(`corpus document not normalized: ${r.ok ? r.value.kind : r.error.message}`);
    new X12Parser(false).parse(doc);
  }

  // node-x12 gets a fresh parser per document: reusing one instance gets slower as it parses more.
  const candidates: [string, (doc: string) => unknown][] = [
    ['normalize271: tokenize + envelope + loops + Coverage', (doc) => normalize271(doc).ok],
    ['readInterchange: tokenize + envelope only', (doc) => readInterchange(doc).ok],
    ['node-x12 X12Parser.parse: parse only', (doc) => new X12Parser(false).parse(doc)],
  ];
  for (const [, fn] of candidates) measure(docs, 0.5, fn);
  // Short interleaved rounds and medians: on a shared machine every side meets the same load.
  const runs = candidates.map((): { cpu: number; wall: number }[] => []);
  for (let round = 0; round < rounds; round++) candidates.forEach(([, fn], i) => runs[i]!.push(measure(docs, perRound, fn)));
  const measures = candidates.map(([name], i) => {
    const cpuDocsPerSecond = median(runs[i]!.map((r) => r.cpu));
    return { name, cpuDocsPerSecond, wallDocsPerSecond: median(runs[i]!.map((r) => r.wall)), cpuMbPerSecond: (cpuDocsPerSecond * avgBytes) / 1e6 };
  });
  const ratio = (key: 'cpu' | 'wall') => median(runs[0]!.map((ours, i) => ours[key] / runs[2]![i]![key]));
  return { measures, cpuRatio: ratio('cpu'), wallRatio: ratio('wall'), corpusBytes: bytes, docs: docs.length, rounds };
}

const SECTION = '## X12 parse + normalize';

function writeResults(markdown: string): void {
  const file = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
  let text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
  const start = text.indexOf(SECTION);
  if (start >= 0) {
    const next = text.indexOf('\n## ', start + SECTION.length);
    text = text.slice(0, start) + markdown + (next >= 0 ? text.slice(next + 1) : '');
  } else {
    text = `${text.trimEnd()}\n\n${markdown}`;
  }
  writeFileSync(file, text.endsWith('\n') ? text : `${text}\n`);
}

function main(): void {
  const seconds = arg('seconds', 6);
  const r = runX12ParseBench({ docs: arg('docs', 400), seconds, rounds: arg('rounds', 10) });
  const cpu = cpus();
  const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const rows = r.measures.map((m) => `| ${m.name} | ${fmt(m.cpuDocsPerSecond)} | ${fmt(m.cpuMbPerSecond, 1)} | ${fmt(m.wallDocsPerSecond)} |`);
  const markdown = [
    SECTION,
    '',
    `Corpus: ${r.docs} distinct 271s built with build271 from varied Coverage values (fixed seed), ` +
      `${fmt(r.corpusBytes / r.docs)} bytes on average. One process, warmed up, ${r.rounds} interleaved rounds of ${fmt(seconds / r.rounds / 3, 2)} s per parser; medians.`,
    `Node ${process.version}, ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')} during the run, ${new Date().toISOString().slice(0, 10)}.`,
    'Throughput per second of process CPU time is the figure to compare: the machine is shared, and elapsed time also counts the time other processes held the cores.',
    '',
    '| parser | documents / CPU s | MB / CPU s | documents / elapsed s |',
    '|---|---:|---:|---:|',
    ...rows,
    '',
    `normalize271 (full parse and normalization) vs node-x12 parse alone: **${fmt(r.cpuRatio, 2)}x** by CPU time, ${fmt(r.wallRatio, 2)}x by elapsed time ` +
      '(medians of the per-round ratios; target: at least 2x).',
    `Of normalize271's time, tokenizing and the envelope checks take ${fmt((100 * r.measures[0]!.cpuDocsPerSecond) / r.measures[1]!.cpuDocsPerSecond)} % ` +
      '(the readInterchange row); the HL loop tree and the Coverage rules take the rest.',
    '',
    'Run: `node --import tsx bench/x12-parse.ts` (options `--docs N`, `--seconds S`, `--rounds R`, `--no-write`).',
    '',
  ].join('\n');
  process.stdout.write(`${markdown}\n`);
  if (!process.argv.includes('--no-write')) writeResults(markdown);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();

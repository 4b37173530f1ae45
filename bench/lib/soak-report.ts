/** The "## Soak" section: per server, outcomes and latency by kind of request, and memory start to end. */
import { fmt } from './results.ts';
import type { ServerSoak } from './soak-run.ts';

const percentile = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

function count(s: ServerSoak, pick: (outcome: string) => boolean): number {
  let n = 0;
  for (const t of s.tallies.byName.values()) for (const [outcome, c] of t.statuses) if (pick(outcome)) n += c;
  return n;
}

function serverTable(s: ServerSoak): string[] {
  const rows = [...s.tallies.byName].map(([name, t]) => {
    const outcomes = [...t.statuses]
      .sort()
      .map(([o, n]) => `${o}: ${fmt(n)}`)
      .join(', ');
    return `| ${name} | ${fmt(t.latencies.length)} | ${outcomes} | ${fmt(percentile(t.latencies, 50))} | ${fmt(percentile(t.latencies, 99))} |`;
  });
  const noAnswer = [...s.failures].map(([reason, n]) => `${n} ${reason}`).join(', ') || 'none';
  const byStatus = new Map<string, number>();
  for (const t of s.tallies.byName.values()) for (const [o, c] of t.statuses) if (!/^2/.test(o)) byStatus.set(o, (byStatus.get(o) ?? 0) + c);
  return [
    `### ${s.name}`,
    '',
    `${fmt(s.requests)} answers (${fmt(s.requestsPerSecond)}/s), p50 ${fmt(percentile(s.latencies, 50))} ms, p99 ${fmt(percentile(s.latencies, 99))} ms over all of them. ` +
      `Requests without an HTTP answer: ${noAnswer}. 500 INTERNAL_ERROR: ${count(s, (o) => o.startsWith('500'))}; answers without an error_code: ${count(s, (o) => o.endsWith('no error_code') || o.endsWith('not JSON'))}.`,
    '',
    `Errors by status: ${
      [...byStatus]
        .sort()
        .map(([o, n]) => `${o} × ${fmt(n)}`)
        .join(', ') || 'none'
    }.`,
    '',
    `Payer exchanges by outcome (its /metrics, warm-up included): ${
      [...s.payerOutcomes]
        .sort()
        .map(
          ([payer, outcomes]) =>
            `${payer} ${[...outcomes]
              .sort()
              .map(([o, n]) => `${o} ${fmt(n)}`)
              .join(', ')}`,
        )
        .join('; ') || 'none'
    }.`,
    '',
    `Memory: RSS ${fmt(s.rss.before)} MB after the warm-up, ${fmt(s.rss.after)} MB at the end (peak ${fmt(s.rss.peak)} MB); heap in use after a full collection ${fmt(s.liveMb.start, 1)} MB after the warm-up, ${fmt(s.liveMb.end, 1)} MB at the end.`,
    '',
    '| requests | answers | outcomes | p50 (ms) | p99 (ms) |',
    '|---|---:|---|---:|---:|',
    ...rows,
    '',
  ];
}

export function soakSection(results: ServerSoak[], context: { seconds: number; faults: object; machine: string }): string {
  return [
    '## Soak',
    '',
    `\`node --import tsx bench/soak.ts\`: ${context.seconds} s of mixed traffic on both servers at once, each \`coverage serve\` in its own process with a fresh SQLite store, ` +
      `10 concurrent clients each, on a schedule of 100 requests/s (a client held by a slow payer falls behind: the rate achieved is given), after a 5 s warm-up, ` +
      `cycling through every check endpoint, GET /v1/payers, good members, failing members and broken requests. ` +
      `The production server talks CORE SOAP/MIME to the payer simulator with these faults: \`${JSON.stringify(context.faults)}\`; payer timeout 2 s, scan timeout 3 s, coverage cache on (fresh member IDs miss it). ` +
      `Expected non-2xx: 400/415 for the broken requests, 404 MEMBER_NOT_FOUND, 502 PAYER_FAILURE for the failing payer and the faulty payers and members. ` +
      `A payer whose exchanges keep failing gets its circuit breaker opened (5 consecutive failures, then 30 s before a trial call: \`circuit_open\` below), so its other members get 502 too meanwhile, ` +
      `except answers still in the coverage cache (the known member). ${context.machine}.`,
    '',
    ...results.flatMap(serverTable),
  ].join('\n');
}

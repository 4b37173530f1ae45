/** Reads a V8 CPU profile into CPU time per request, by where in the stack the time is spent. */
import { existsSync, readFileSync } from 'node:fs';
import type { Profiler } from 'node:inspector';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

const CATEGORIES: [string, RegExp][] = [
  ['X12: 270 build and parse, 271 build and normalize', /^(?!.*\/node_modules\/).*\/(src|dist)\/x12\//],
  [
    'production payer path (connector, CORE envelope, vendors)',
    /^(?!.*\/node_modules\/).*\/(src|dist)\/payers\/(production|core|vendors|network|connections|directory)(\/|\.)/,
  ],
  ['sandbox payer network (catalog lookup, plan resolution)', /^(?!.*\/node_modules\/).*\/(src|dist)\/(payers|sandbox)\//],
  ['operations and estimate engine', /^(?!.*\/node_modules\/).*\/(src|dist)\/(operations|domain)\//],
  ['our HTTP hooks (auth, audit, logging, metrics, errors)', /^(?!.*\/node_modules\/).*\/(src|dist)\/(http|store|cli)\//],
  [
    'Fastify (routing, hooks, JSON parse, validation, serialization)',
    /node_modules\/(fastify|find-my-way|avvio|fast-json-stringify|ajv|ajv-formats|secure-json-parse|fast-uri|@fastify\/(ajv-compiler|fast-json-stringify-compiler|error|merge-json-schemas)|fast-querystring|light-my-request|toad-cache|rfdc|json-schema-ref-resolver|process-warning|abstract-logging)\//,
  ],
  ['rate limit (@fastify/rate-limit)', /node_modules\/@fastify\/rate-limit\//],
  [
    'logging (pino)',
    /node_modules\/(pino|sonic-boom|pino-std-serializers|fast-redact|quick-format-unescaped|on-exit-leak-free|thread-stream|atomic-sleep|safe-stable-stringify)\//,
  ],
  ['metrics (prom-client)', /node_modules\/(prom-client|tdigest|bintrees)\//],
  ['SQLite (keys, audit writes)', /node_modules\/(kysely|better-sqlite3)\//],
  ['HTTP client to the payer (undici)', /node_modules\/undici\//],
  ['resilience policies (cockatiel)', /node_modules\/cockatiel\//],
  ['SOAP reading (fast-xml-parser)', /node_modules\/(fast-xml-parser|strnum)\//],
  ['crypto (key hash, member HMAC, random ids)', /^node:(internal\/)?crypto|^node:crypto/],
  ['Node HTTP, streams and sockets', /^node:(_http|net|internal\/(streams|stream_base_commons|http|net)|stream)/],
  ['Node event loop, promises and timers', /^node:(events|internal\/async_hooks|async_hooks|internal\/process\/task_queues|internal\/timers|timers)/],
];

const OTHER = 'other (Node internals, tsx loader, libraries)';
const PROFILER = 'the profiler stopping';

/** Frames outside any stack: V8's own pseudo-functions. */
const NATIVE: Record<string, string> = {
  '(garbage collector)': 'garbage collection',
  '(idle)': 'idle',
  '(program)': 'V8 and native (not attributed)',
};

export interface CpuBreakdown {
  /** Sampled milliseconds by category, idle excluded from `busyMs`. */
  byCategory: [string, number][];
  busyMs: number;
  totalMs: number;
  /** The leaf frames of the samples charged to no category, by sampled ms, largest first (what "other" is made of). */
  otherLeaves: [string, number][];
}

/**
 * The coverage command runs from an esbuild bundle (scripts/bundle-cli.mjs), whose frames all name
 * dist/cli/bundle/*.js: each is read back through the bundle's source map to the src/ or
 * node_modules/ file it came from, so the categories below still apply.
 */
const BUNDLE = /\/dist\/cli\/bundle\/[^/]+\.js$/;
const maps = new Map<string, SourceMap | null>();
function sourceUrl(frame: Profiler.ProfileNode['callFrame']): string {
  if (!BUNDLE.test(frame.url)) return frame.url;
  let map = maps.get(frame.url);
  if (map === undefined) {
    const file = `${frame.url.startsWith('file:') ? fileURLToPath(frame.url) : frame.url}.map`;
    map = existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8'))) : null;
    maps.set(frame.url, map);
  }
  const entry = map?.findEntry(frame.lineNumber, frame.columnNumber);
  const source = entry && 'originalSource' in entry ? entry.originalSource : undefined;
  if (!source) return frame.url;
  const base = frame.url.startsWith('file:') ? frame.url : `file://${frame.url}`;
  return new URL(source, base).href;
}

/**
 * Each sample goes to the category of the nearest frame (from the leaf up) that has one, so
 * time in a builtin called from our X12 code counts as X12, and a native leaf with no URL counts
 * where its caller is.
 */
export function breakdown(profile: Profiler.Profile): CpuBreakdown {
  const byId = new Map(profile.nodes.map((n) => [n.id, { ...n, callFrame: { ...n.callFrame, url: sourceUrl(n.callFrame) } }]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const memo = new Map<number, string>();
  const categoryOf = (id: number): string => {
    const cached = memo.get(id);
    if (cached) return cached;
    let found: string | undefined;
    const leaf = byId.get(id)!;
    found = leaf.callFrame.url ? undefined : NATIVE[leaf.callFrame.functionName];
    // Stopping the profiler (serializing the profile) is sampled too: it is the bench's, not the server's.
    for (let cur: number | undefined = id; !found && cur !== undefined; cur = parent.get(cur)) {
      if (byId.get(cur)!.callFrame.url.endsWith('/profile-hook.mjs')) found = PROFILER;
    }
    for (let cur: number | undefined = id; !found && cur !== undefined; cur = parent.get(cur)) {
      const url = byId.get(cur)!.callFrame.url;
      if (url) found = CATEGORIES.find(([, re]) => re.test(url))?.[0];
    }
    const result = found ?? OTHER;
    memo.set(id, result);
    return result;
  };
  const totals = new Map<string, number>();
  const other = new Map<string, number>();
  let total = 0;
  profile.samples?.forEach((id, i) => {
    const dt = (profile.timeDeltas?.[i] ?? 0) / 1000;
    total += dt;
    const c = categoryOf(id);
    totals.set(c, (totals.get(c) ?? 0) + dt);
    if (c === OTHER) {
      const f = byId.get(id)!.callFrame;
      const leaf = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/node_modules\//, '')}`;
      other.set(leaf, (other.get(leaf) ?? 0) + dt);
    }
  });
  const profiler = totals.get(PROFILER) ?? 0;
  totals.delete(PROFILER);
  const idle = totals.get('idle') ?? 0;
  return {
    byCategory: [...totals].sort((a, b) => b[1] - a[1]),
    busyMs: total - profiler - idle,
    totalMs: total - profiler,
    otherLeaves: [...other].sort((a, b) => b[1] - a[1]),
  };
}

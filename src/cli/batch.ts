/**
 * `coverage batch FILE [--wait] [--out results.csv]` and `coverage batch --watch ID`: send a schedule
 * (CSV or JSON) to a running server (COVERAGE_URL, COVERAGE_API_KEY), follow it, and save the
 * results as CSV. Ctrl-C stops watching only: the batch keeps running on the server.
 */
import { createWriteStream, readFileSync } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { ProgressMeter } from './batch-progress.ts';
import { EXIT_API_ERROR, EXIT_UNREACHABLE, serverOf } from './check.ts';
import type { CliIo } from './io.ts';

export interface BatchOptions {
  wait?: boolean;
  out?: string;
  watch?: string;
}

export interface BatchContext {
  env: NodeJS.ProcessEnv;
  io: CliIo;
  /** Redraw a bar in place (stdout is a terminal) or print plain lines. */
  tty: boolean;
  /** Aborted on Ctrl-C. */
  interrupt: AbortSignal;
  fetch?: typeof fetch;
  now?: () => number;
  pollMs?: number;
}

export const EXIT_INTERRUPTED = 130;

interface Progress {
  id: string;
  status: 'queued' | 'running' | 'completed' | 'cancelled';
  total: number;
  done: number;
  /** Rows that will not run: the batch was cancelled (DELETE, or its key revoked). */
  cancelled?: number;
  running?: number;
  outcomes: { outcome: string; count: number }[];
}

interface ApiErrorBody {
  error_code?: string;
  message?: string;
  errors?: { row?: number; field: string; message: string }[];
}

const SHOWN_ROW_ERRORS = 20;
const CLEAR_LINE = '\r\x1b[K';

/** CSV unless the file is named .json or holds a JSON object or array. */
export function batchBody(file: string, text: string): { contentType: string; body: string } {
  const start = text.replace(/^\uFEFF/, '').trimStart()[0];
  if (file.toLowerCase().endsWith('.json') || start === '{' || start === '[') {
    const parsed: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    return { contentType: 'application/json', body: JSON.stringify(Array.isArray(parsed) ? { checks: parsed } : parsed) };
  }
  return { contentType: 'text/csv', body: text };
}

function describeApiError(status: number, body: ApiErrorBody): string {
  const lines = [`${body.error_code ?? 'ERROR'} (HTTP ${status}): ${body.message ?? ''}`];
  const errors = body.errors ?? [];
  for (const e of errors.slice(0, SHOWN_ROW_ERRORS)) lines.push(`  ${e.row !== undefined ? `row ${e.row}: ` : ''}${e.field} ${e.message}`);
  if (errors.length > SHOWN_ROW_ERRORS) lines.push(`  … and ${errors.length - SHOWN_ROW_ERRORS} more`);
  return lines.join('\n') + '\n';
}

const resumeHint = (id: string, out: string | undefined) => `coverage batch --watch ${id}${out ? ` --out ${out}` : ''}`;

class Api {
  constructor(
    private readonly base: string,
    private readonly key: string,
    private readonly doFetch: typeof fetch,
  ) {}

  call(path: string, init: RequestInit = {}): Promise<Response> {
    return this.doFetch(new URL(path, this.base), { ...init, headers: { apikey: this.key, ...(init.headers as Record<string, string>) } });
  }
}

/** Resolves after ms, or at once when the signal aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** `sent`: when this command queued the batch, so the first rate counts from there. */
async function watch(api: Api, id: string, options: BatchOptions, ctx: BatchContext, sent?: { total: number; at: number }): Promise<number> {
  const { io } = ctx;
  const now = ctx.now ?? Date.now;
  const meter = new ProgressMeter();
  if (sent) meter.observe({ done: 0, total: sent.total, at: sent.at });
  let lastLine = '';
  let drawn = false;
  const show = (p: Progress) => {
    meter.observe({ done: p.done, total: p.total, at: now() });
    if (ctx.tty) {
      io.stdout(`${CLEAR_LINE}${meter.bar()}`);
      drawn = true;
    } else {
      const line = meter.line();
      // Plain lines only when the count moves, so a log is not flooded by a slow batch.
      if (line.split(',')[0] !== lastLine.split(',')[0]) io.stdout(`${line}\n`);
      lastLine = line;
    }
  };
  const interrupted = () => {
    if (drawn) io.stdout('\n');
    io.stdout(`Stopped watching. Batch ${id} keeps running on the server.\nWatch it again: ${resumeHint(id, options.out)}\n`);
    return EXIT_INTERRUPTED;
  };

  let progress: Progress;
  for (;;) {
    if (ctx.interrupt.aborted) return interrupted();
    const res = await api.call(`/v1/batches/${encodeURIComponent(id)}`);
    const body = (await res.json()) as Progress & ApiErrorBody;
    if (!res.ok) {
      if (drawn) io.stdout('\n');
      io.stderr(`coverage batch: ${describeApiError(res.status, body)}`);
      return EXIT_API_ERROR;
    }
    progress = body;
    show(progress);
    if (progress.status === 'completed') break;
    // A cancelled batch is over once the rows that were running have finished.
    if (progress.status === 'cancelled' && !progress.running) break;
    await pause(ctx.pollMs ?? 500, ctx.interrupt);
  }
  if (drawn) io.stdout('\n');
  if (progress.status === 'cancelled') io.stdout(`Cancelled: ${progress.cancelled ?? 0} of ${progress.total} rows were not checked\n`);
  io.stdout(`Done: ${progress.outcomes.map((o) => `${o.outcome} ${o.count}`).join(', ') || 'no rows'}\n`);

  const out = options.out ?? `${id}.csv`;
  const res = await api.call(`/v1/batches/${encodeURIComponent(id)}/results`, { headers: { accept: 'text/csv' } });
  if (!res.ok || !res.body) {
    io.stderr(`coverage batch: ${describeApiError(res.status, (await res.json().catch(() => ({}))) as ApiErrorBody)}`);
    return EXIT_API_ERROR;
  }
  let lines = 0;
  const count = new Transform({
    transform(chunk: Buffer, _enc, next) {
      for (const byte of chunk) if (byte === 0x0a) lines++;
      next(null, chunk);
    },
  });
  // Names, dates of birth and member IDs: readable by this user only.
  await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), count, createWriteStream(out, { mode: 0o600 }));
  io.stdout(`Results: ${out} (${Math.max(0, lines - 1)} rows)\n`);
  return 0;
}

export async function runBatch(file: string | undefined, options: BatchOptions, ctx: BatchContext): Promise<number> {
  const server = serverOf('batch', ctx);
  if (!server) return EXIT_UNREACHABLE;
  const { base, key } = server;
  if (!file === !options.watch) {
    ctx.io.stderr('coverage batch: give a schedule file to send, or --watch BATCH_ID to follow one already sent\n');
    return EXIT_API_ERROR;
  }
  const api = new Api(base, key, ctx.fetch ?? fetch);
  try {
    if (options.watch) return await watch(api, options.watch, options, ctx);

    let request: { contentType: string; body: string };
    try {
      request = batchBody(file!, readFileSync(file!, 'utf8'));
    } catch (err) {
      ctx.io.stderr(`coverage batch: cannot read ${file}: ${err instanceof Error ? err.message : String(err)}\n`);
      return EXIT_API_ERROR;
    }
    // Not tied to Ctrl-C: once sent, the batch's id is worth waiting for so it can be printed.
    const sentAt = (ctx.now ?? Date.now)();
    const res = await api.call('/v1/batches', { method: 'POST', headers: { 'content-type': request.contentType }, body: request.body });
    const body = (await res.json()) as { id: string; total: number } & ApiErrorBody;
    if (res.status !== 202) {
      ctx.io.stderr(`coverage batch: ${describeApiError(res.status, body)}`);
      return EXIT_API_ERROR;
    }
    ctx.io.stdout(`Queued ${body.total} check${body.total === 1 ? '' : 's'} from ${file} as batch ${body.id}.\n`);
    if (!options.wait && !options.out) {
      ctx.io.stdout(`Follow it and save the results: ${resumeHint(body.id, undefined)} [--out results.csv]\n`);
      return 0;
    }
    return await watch(api, body.id, options, ctx, { total: body.total, at: sentAt });
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
    ctx.io.stderr(`coverage batch: cannot reach ${base} (${err instanceof Error ? err.message : String(err)}${cause})\n`);
    return EXIT_UNREACHABLE;
  }
}

/** The action of the command, with the process's terminal, environment and Ctrl-C. */
export async function batchCommand(file: string | undefined, options: BatchOptions): Promise<number> {
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.on('SIGINT', onSigint);
  try {
    return await runBatch(file, options, {
      env: process.env,
      io: { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) },
      tty: process.stdout.isTTY === true,
      interrupt: controller.signal,
    });
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/**
 * `coverage remit FILE [--payer-id ID]`: send a remittance (X12 835) to a running server (COVERAGE_URL,
 * COVERAGE_API_KEY) and print how its lines compared with the estimates answered for them: lines
 * matched, the verdicts, the likely causes and why the others matched nothing (docs/remittances.md).
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { dollars } from '../domain/estimate/explain.ts';
import type { RemittanceAnswer } from '../domain/schemas/remittances.ts';
import { EXIT_API_ERROR, EXIT_UNREACHABLE, serverOf } from './check.ts';
import { formatTable, processIo, type CliIo } from './io.ts';

export interface RemitOptions {
  payerId?: string;
  json?: boolean;
}

export interface RemitContext {
  env: NodeJS.ProcessEnv;
  io: CliIo;
  fetch?: typeof fetch;
}

/** Lines listed one by one: those to look at (off, not comparable, unmatched); a big file's rest are counted. */
const SHOWN_LINES = 50;

const VERDICT_WORDS: Record<string, string> = {
  exact: 'exact',
  within_1: 'within $1',
  under_collected: 'collected too little',
  over_collected: 'collected too much',
  not_comparable: 'not comparable',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Counts of each distinct value, most frequent first (ties in first-seen order). */
function tally(values: string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]);
}

type Line = RemittanceAnswer['lines'][number];

function lineOutcome(l: Line): string {
  if (l.comparison === null) return `unmatched: ${l.unmatched_reason ?? 'no estimate'}`;
  const c = l.comparison;
  if (c.verdict === 'not_comparable') return `not comparable: ${c.reason ?? ''}`;
  const words = VERDICT_WORDS[c.verdict] ?? c.verdict;
  const off = c.verdict === 'exact' || c.difference === null ? '' : ` by ${dollars(Math.abs(c.difference))}`;
  return `${words}${off}${c.causes.length > 0 ? ` (${c.causes.join('; ')})` : ''}`;
}

/** The summary printed for an answer of POST /v1/remittances. */
export function summarizeRemittance(r: RemittanceAnswer): string {
  const out: string[] = [];
  out.push(`Remittance ${r.id}: ${plural(r.claims, 'claim')}, ${plural(r.service_lines, 'service line')}, ${r.matched} matched, ${r.unmatched} unmatched`);
  const compared = r.lines.filter((l) => l.comparison !== null).map((l) => l.comparison!);
  if (compared.length > 0) {
    const verdicts = tally(compared.map((c) => c.verdict)).map(([v, n]) => `${VERDICT_WORDS[v] ?? v} ${n}`);
    out.push(`Verdicts   ${verdicts.join(', ')}`);
    const under = compared.filter((c) => c.verdict === 'under_collected').reduce((t, c) => t + (c.difference ?? 0), 0);
    const over = compared.filter((c) => c.verdict === 'over_collected').reduce((t, c) => t - (c.difference ?? 0), 0);
    if (under > 0 || over > 0) out.push(`Collected  ${dollars(under)} too little, ${dollars(over)} too much`);
    const causes = tally(compared.flatMap((c) => c.causes.slice(0, 1)));
    if (causes.length > 0) out.push(`Causes     ${causes.map(([c, n]) => `${c} ${n}`).join(', ')}`);
  }
  const reasons = tally(r.lines.filter((l) => l.comparison === null).map((l) => l.unmatched_reason ?? 'no estimate'));
  for (const [i, [reason, n]] of reasons.entries()) out.push(`${i === 0 ? 'Unmatched ' : '          '} ${n}: ${reason}`);
  for (const [i, w] of r.warnings.entries()) out.push(`${i === 0 ? 'Warnings  ' : '          '} ${w}`);

  const toLook = r.lines.filter((l) => l.comparison === null || (l.comparison.verdict !== 'exact' && l.comparison.verdict !== 'within_1'));
  if (toLook.length > 0) {
    out.push('', 'Lines to look at:');
    const rows = toLook
      .slice(0, SHOWN_LINES)
      .map((l) => [
        `${r.lines.some((x) => x.transaction > 1) ? `${l.transaction}/` : ''}${l.claim}/${l.line}`,
        [l.procedure, ...l.modifiers].join(':'),
        l.date_of_service ?? '',
        lineOutcome(l),
      ]);
    out.push(formatTable(['claim/line', 'procedure', 'date', 'outcome'], rows).trimEnd());
    if (toLook.length > SHOWN_LINES) out.push(`… and ${toLook.length - SHOWN_LINES} more (--json lists every line)`);
  }
  out.push('', `Read it again: GET /v1/remittances/${r.id}; how right the estimates were: GET /v1/accuracy`);
  return out.join('\n') + '\n';
}

interface ApiErrorBody {
  error_code?: string;
  message?: string;
  request_id?: string;
}

/** Sends the file and prints the summary (or the JSON answer); returns the exit code. */
export async function runRemit(file: string, options: RemitOptions, ctx: RemitContext): Promise<number> {
  const server = serverOf('remit', ctx);
  if (!server) return EXIT_UNREACHABLE;
  const { base, key } = server;
  let text: string;
  try {
    text = readFileSync(file, 'latin1');
  } catch (err) {
    ctx.io.stderr(`coverage remit: cannot read ${file}: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT_API_ERROR;
  }
  const url = new URL('/v1/remittances', base);
  if (options.payerId !== undefined) url.searchParams.set('payer_id', options.payerId);
  let res: Response;
  let body: unknown;
  try {
    res = await (ctx.fetch ?? fetch)(url, { method: 'POST', headers: { apikey: key, 'content-type': 'application/edi-x12' }, body: text });
    body = await res.json();
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
    ctx.io.stderr(`coverage remit: cannot reach ${base} (${err instanceof Error ? err.message : String(err)}${cause})\n`);
    return EXIT_UNREACHABLE;
  }
  if (res.status !== 201) {
    const e = body as ApiErrorBody;
    if (options.json) ctx.io.stdout(`${JSON.stringify(body, null, 2)}\n`);
    ctx.io.stderr(
      `coverage remit: ${e.error_code ?? 'ERROR'} (HTTP ${res.status}): ${e.message ?? ''}${e.request_id ? `\n  request_id ${e.request_id}` : ''}\n`,
    );
    return EXIT_API_ERROR;
  }
  ctx.io.stdout(options.json ? `${JSON.stringify(body, null, 2)}\n` : summarizeRemittance(body as RemittanceAnswer));
  return 0;
}

export function registerRemitCommand(program: Command, ctx: RemitContext = { env: process.env, io: processIo }): void {
  program
    .command('remit')
    .description('send a remittance (X12 835) to a server and print how its lines compared with the estimates (COVERAGE_URL, COVERAGE_API_KEY)')
    .argument('<file>', 'the 835 as received from the payer')
    .option('--payer-id <id>', "the payer the 835 is from, when its own IDs (N1 PR, REF 2U) are not the directory's")
    .option('--json', 'print the JSON answer instead of the summary')
    .action(async (file: string, options: RemitOptions) => {
      process.exitCode = await runRemit(file, options, ctx);
    });
}

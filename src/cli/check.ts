/**
 * `coverage check estimate|discover|scan|medicaid`: one check against a running server
 * (COVERAGE_URL, COVERAGE_API_KEY) through CoverageClient, printed as a summary or as JSON.
 * Fields are validated by the server, not here: its INVALID_REQUEST names them, and they are
 * shown with the option that sets them.
 */
import type { Command } from 'commander';
import { CoverageApiError, CoverageClient } from 'coverage-service-client';
import type { OperationName } from '../domain/schemas/requests.ts';
import { dollarsToCents } from '../formats/spreadsheet-cells.ts';
import { verdict } from '../http/console/verdict.js';
import { summarize, type CheckResult } from './check-summary.ts';
import { envSchemaOf } from '../server/env-schema.ts';
import { processIo, type CliIo } from './io.ts';
import { systemClock } from '../domain/clock.ts';

export interface CheckOptions {
  memberId?: string;
  firstName?: string;
  lastName?: string;
  dob?: string;
  payerId?: string;
  zip?: string;
  state?: string;
  npi?: string;
  /** Dollars as people write them: 150, 150.00, $150, 1,250.00 (sent as cents). */
  cost?: string;
  outOfNetwork?: boolean;
  /** A course of care (docs/course-of-care.md): this many sessions, `every` days apart. */
  sessions?: string;
  every?: string;
  dateOfService?: string;
  procedure?: string;
  place?: string;
  json?: boolean;
}

export interface CheckContext {
  env: NodeJS.ProcessEnv;
  io: CliIo;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_COVERAGE_URL = String(envSchemaOf('COVERAGE_URL').default);

export const EXIT_API_ERROR = 1;
export const EXIT_UNREACHABLE = 2;

/** The server a command talks to (COVERAGE_URL, or the default) and its key; null, said on stderr, when no key is set. */
export function serverOf(command: string, ctx: { env: NodeJS.ProcessEnv; io: CliIo }): { base: string; key: string } | null {
  const key = ctx.env.COVERAGE_API_KEY;
  if (!key) {
    ctx.io.stderr(`coverage ${command}: set COVERAGE_API_KEY (a sandbox server prints its dev key when it starts)\n`);
    return null;
  }
  return { base: ctx.env.COVERAGE_URL || DEFAULT_COVERAGE_URL, key };
}

const OPTION_OF_FIELD: Record<string, string> = {
  member_id: '--member-id',
  member_first_name: '--first-name',
  member_last_name: '--last-name',
  member_dob: '--dob',
  payer_id: '--payer-id',
  zip: '--zip',
  patient_state: '--state',
  provider_npi: '--npi',
  provider_session_cost: '--cost',
  in_network: '--out-of-network',
  // Schema validation names the top-level field only; the course's own checks name its parts.
  course: '--sessions / --every',
  'course.every_days': '--every',
  date_of_service: '--date-of-service',
  procedure_code: '--procedure',
  place_of_service: '--place',
};

/** A count as the number the API takes; anything else as typed, for the server to refuse with its message. */
const count = (v: string) => (/^[0-9]{1,6}$/.test(v) ? Number(v) : v);

class CostRefused extends Error {}

/** --cost is dollars (the API's provider_session_cost is cents): "150" is a $150.00 session, sent as 15000. */
function costCents(text: string): string {
  const cell = dollarsToCents(text);
  if (!cell.ok) throw new CostRefused(`--cost ${cell.message} (--cost is in dollars: 150 is a $150.00 session)`);
  return cell.value;
}

/** Only the options given are sent, except names and ZIP where the endpoint allows blank. */
const defined = <T extends Record<string, unknown>>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

async function send(client: CoverageClient, operation: OperationName, o: CheckOptions): Promise<CheckResult> {
  const person = { member_first_name: o.firstName, member_last_name: o.lastName, member_dob: o.dob };
  // Casts: missing required fields are the server's to report, with the same message an integrator would get.
  switch (operation) {
    case 'estimate': {
      const body = defined({
        member_id: o.memberId,
        member_first_name: o.firstName ?? '',
        member_last_name: o.lastName ?? '',
        member_dob: o.dob,
        payer_id: o.payerId,
        provider_npi: o.npi,
        provider_session_cost: o.cost === undefined ? undefined : costCents(o.cost),
        in_network: !o.outOfNetwork,
        course: o.sessions === undefined ? undefined : defined({ sessions: count(o.sessions), every_days: o.every === undefined ? undefined : count(o.every) }),
        date_of_service: o.dateOfService,
        procedure_code: o.procedure,
        place_of_service: o.place,
      });
      return { operation, result: await client.estimate(body as Parameters<CoverageClient['estimate']>[0]) };
    }
    case 'discover': {
      const body = defined({ ...person, zip: o.zip ?? '', payer_id: o.payerId ?? '' });
      return { operation, result: await client.discover(body as Parameters<CoverageClient['discover']>[0]) };
    }
    case 'scan': {
      const body = defined({ ...person, zip: o.zip ?? '' });
      return { operation, result: await client.scan(body as Parameters<CoverageClient['scan']>[0]) };
    }
    case 'medicaid': {
      const body = defined({ member_id: o.memberId, ...person, payer_id: o.payerId, patient_state: o.state });
      return { operation, result: await client.medicaid(body as Parameters<CoverageClient['medicaid']>[0]) };
    }
  }
}

function describeError(err: CoverageApiError): string {
  const v = verdict('', err.status, { error_code: err.error_code }, null);
  const lines = [`${v.text}. ${v.next}`, `  ${err.error_code} (HTTP ${err.status}): ${err.message}`];
  for (const e of err.errors) lines.push(`  ${OPTION_OF_FIELD[e.field] ? `${OPTION_OF_FIELD[e.field]} (${e.field})` : e.field}: ${e.message}`);
  if (err.retry_after_seconds !== null) lines.push(`  retry after ${err.retry_after_seconds} s`);
  if (err.request_id) lines.push(`  request_id ${err.request_id}`);
  return lines.join('\n') + '\n';
}

/** Runs one check and returns the exit code: 0 on a result (206 partials included), non-zero on errors. */
export async function runCheck(operation: OperationName, options: CheckOptions, ctx: CheckContext): Promise<number> {
  const server = serverOf('check', ctx);
  if (!server) return EXIT_UNREACHABLE;
  const { base: baseUrl, key: apiKey } = server;
  const client = new CoverageClient({
    baseUrl,
    apiKey,
    ...(ctx.fetch ? { fetch: ctx.fetch } : {}),
    ...(ctx.sleep ? { sleep: ctx.sleep } : {}),
    onRetry: ({ delayMs, error }) => ctx.io.stderr(`coverage check: ${error.error_code}; retrying in ${Math.ceil(delayMs / 1000)} s\n`),
  });
  try {
    const check = await send(client, operation, options);
    ctx.io.stdout(options.json ? `${JSON.stringify(check.result, null, 2)}\n` : summarize(check, undefined, systemClock.today()));
    return 0;
  } catch (err) {
    if (err instanceof CostRefused) {
      ctx.io.stderr(`coverage check ${operation}: ${err.message}\n`);
      return EXIT_API_ERROR;
    }
    if (err instanceof CoverageApiError) {
      if (options.json) {
        const { status, error_code, message, request_id, errors } = err;
        ctx.io.stdout(`${JSON.stringify({ status, error_code, message, request_id, errors }, null, 2)}\n`);
      }
      ctx.io.stderr(`coverage check ${operation}: ${describeError(err)}`);
      return EXIT_API_ERROR;
    }
    const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
    ctx.io.stderr(`coverage check: cannot reach ${baseUrl} (${err instanceof Error ? err.message : String(err)}${cause})\n`);
    return EXIT_UNREACHABLE;
  }
}

const OPERATION_OPTIONS: Record<OperationName, { summary: string; flags: [string, string][] }> = {
  estimate: {
    summary: 'what a session costs the patient, with deductible and out-of-pocket progress',
    flags: [
      ['--member-id <id>', 'member ID'],
      ['--first-name <name>', 'member first name (may be blank)'],
      ['--last-name <name>', 'member last name (may be blank)'],
      ['--dob <YYYY-MM-DD>', 'member date of birth'],
      ['--payer-id <id>', 'payer (blank: any payer in the sandbox)'],
      ['--npi <npi>', 'provider NPI'],
      ['--cost <dollars>', 'session price in dollars: 150, 150.00 or $150 (sent as provider_session_cost 15000 cents)'],
      ['--out-of-network', 'the provider is out of network'],
      ['--sessions <n>', 'price a course of n sessions from today, not one (docs/course-of-care.md)'],
      ['--every <days>', 'days between the sessions of --sessions (default 7)'],
      ['--date-of-service <YYYY-MM-DD>', 'the session date (default today; up to 12 months back or the end of next month)'],
      ['--procedure <code>', 'CPT or HCPCS code of the session, e.g. 90837 (default none: an office psychotherapy visit)'],
      ['--place <code>', 'place of service: 11 office (default), 02 telehealth not at home, 10 telehealth at home'],
    ],
  },
  discover: {
    summary: 'coverage at a known payer by name, DOB and ZIP',
    flags: [
      ['--first-name <name>', 'member first name'],
      ['--last-name <name>', 'member last name'],
      ['--dob <YYYY-MM-DD>', 'member date of birth'],
      ['--zip <zip>', 'ZIP (blank: 10001 in the sandbox)'],
      ['--payer-id <id>', 'payer (blank: any payer in the sandbox)'],
    ],
  },
  scan: {
    summary: 'coverage at any payer by name, DOB and ZIP',
    flags: [
      ['--first-name <name>', 'member first name'],
      ['--last-name <name>', 'member last name'],
      ['--dob <YYYY-MM-DD>', 'member date of birth'],
      ['--zip <zip>', 'ZIP (blank: 10001 in the sandbox)'],
    ],
  },
  medicaid: {
    summary: "Medicaid coverage at the state's program or a payer",
    flags: [
      ['--member-id <id>', 'Medicaid member ID'],
      ['--first-name <name>', 'member first name'],
      ['--last-name <name>', 'member last name'],
      ['--dob <YYYY-MM-DD>', 'member date of birth'],
      ['--state <code>', 'patient state, e.g. NY (or give --payer-id)'],
      ['--payer-id <id>', 'Medicaid payer (or give --state)'],
    ],
  },
};

export function registerCheckCommand(program: Command, ctx: CheckContext = { env: process.env, io: processIo }): void {
  const check = program.command('check').description('run one check against a server (COVERAGE_URL, default http://localhost:8080; COVERAGE_API_KEY)');
  for (const [operation, spec] of Object.entries(OPERATION_OPTIONS) as [OperationName, (typeof OPERATION_OPTIONS)[OperationName]][]) {
    const sub = check.command(operation).description(spec.summary);
    for (const [flags, description] of spec.flags) sub.option(flags, description);
    sub.option('--json', 'print the JSON answer instead of the summary');
    sub.action(async (options: CheckOptions) => {
      process.exitCode = await runCheck(operation, options, ctx);
    });
  }
}

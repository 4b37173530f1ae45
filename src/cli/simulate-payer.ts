/** `coverage simulate-payer`: run the CORE payer simulator, optionally writing a directory that points at it. */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { simulatorDirectory, SIMULATOR_PASSWORD_ENV, SIMULATOR_USERNAME_ENV } from '../payers/simulator/directory.ts';
import { parseFaultPlan } from '../payers/simulator/faults.ts';
import { PayerSimulator } from '../payers/simulator/server.ts';

interface Options {
  port: string;
  host: string;
  directoryOut?: string;
  latencyMs: string;
  faults?: string;
  extraPayers: string;
  protocol: string;
  replay?: string;
  /** Default core. */
  as?: string;
  maxInFlight?: string;
  /** Write the 835 for these estimates instead of serving (simulate-remit.ts). */
  remit?: string;
  scenario?: string;
  out?: string;
  npi?: string;
}

function nonNegativeInt(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

/** --faults takes a JSON object, or the name of a file holding one. */
function readFaults(arg: string) {
  const text = arg.trim().startsWith('{') ? arg : existsSync(arg) ? readFileSync(arg, 'utf8') : null;
  if (text === null) throw new Error(`--faults: no such file ${arg}`);
  try {
    return parseFaultPlan(JSON.parse(text));
  } catch (err) {
    throw new Error(`--faults: ${err instanceof SyntaxError ? 'not valid JSON' : (err as Error).message}`);
  }
}

const VENDORS = ['stedi', 'optum', 'availity'] as const;
type Vendor = (typeof VENDORS)[number];

/** `--as stedi` or `--as stedi,optum`: the vendors listed, in that order (the order of each payer's routes). */
export function parseVendors(as: string): Vendor[] {
  const names = as.split(',').map((v) => v.trim().toLowerCase());
  const unknown = names.filter((v) => !(VENDORS as readonly string[]).includes(v));
  if (unknown.length > 0 || names.length === 0) throw new Error('--as must be core, or one or more of stedi, optum, availity separated by commas');
  if (new Set(names).size !== names.length) throw new Error('--as names a vendor twice');
  return names as Vendor[];
}

/**
 * `--as stedi[,optum,...]`: each vendor's own API on loopback (src/payers/simulator/vendors/), on
 * --port and the ports after it (or each on a free port with --port 0). The directory routes each
 * payer through every simulator serving it in the order given, and --faults applies to the first
 * only, so a failing primary hands over to the next: a failover rehearsal (docs/going-live.md).
 */
async function runVendorSimulators(opts: Options): Promise<void> {
  const vendors = parseVendors(opts.as ?? '');
  if (opts.replay !== undefined) throw new Error('--replay works with --as core only');
  const [{ StediSimulator }, { OptumSimulator }, { AvailitySimulator }, { vendorDirectory, SIM_SECRET_ENVS }] = await Promise.all([
    import('../payers/simulator/vendors/stedi.ts'),
    import('../payers/simulator/vendors/optum.ts'),
    import('../payers/simulator/vendors/availity.ts'),
    import('../payers/simulator/vendors/directory.ts'),
  ]);
  const port = nonNegativeInt('--port', opts.port);
  const faults = opts.faults ? readFaults(opts.faults) : undefined;
  const sims: { name: string; sim: InstanceType<typeof StediSimulator | typeof OptumSimulator | typeof AvailitySimulator> }[] = [];
  const lines: string[] = [];
  try {
    for (const [i, vendor] of vendors.entries()) {
      const options = {
        port: port === 0 ? 0 : port + i,
        host: opts.host,
        latencyMs: nonNegativeInt('--latency-ms', opts.latencyMs),
        ...(opts.maxInFlight !== undefined ? { maxInFlight: nonNegativeInt('--max-in-flight', opts.maxInFlight) } : {}),
        ...(faults && i === 0 ? { faults } : {}),
      };
      const sim =
        vendor === 'optum'
          ? await OptumSimulator.start(options)
          : vendor === 'availity'
            ? await AvailitySimulator.start(options)
            : await StediSimulator.start(options);
      sims.push({ name: vendor, sim });
      lines.push(
        ...vendorLines(vendor, sim.url, sim.baseUrl),
        ...(faults && i === 0 && vendors.length > 1 ? ['  the --faults plan applies here (the first route)'] : []),
      );
    }
  } catch (err) {
    await Promise.all(sims.map(({ sim }) => sim.close()));
    throw err;
  }
  if (vendors.length > 1) lines.push(`  each payer routes through ${vendors.join(', then ')}: a route that fails as a route hands over to the next`);
  if (opts.directoryOut) {
    writeFileSync(opts.directoryOut, JSON.stringify(vendorDirectory(sims), null, 2) + '\n');
    lines.push(
      `  payer directory written to ${opts.directoryOut}`,
      '',
      'Run the service against it (on port 8081: a sandbox started with npm start holds 8080):',
      `  PORT=8081 ${SIM_SECRET_ENVS.map((e) => `${e}=sim`).join(' ')} COVERAGE_DATA_KEY=$(openssl rand -hex 32) COVERAGE_MODE=production COVERAGE_PAYERS=${opts.directoryOut} npm start`,
    );
  }
  process.stdout.write(lines.join('\n') + '\n');
  const stop = () => void Promise.all(sims.map(({ sim }) => sim.close())).then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

function vendorLines(vendor: Vendor, url: string, baseUrl: string): string[] {
  if (vendor === 'availity')
    return [
      `Availity simulator (Coverages) listening on ${url}`,
      `  POST ${url}/v1/token (client_id=sim, client_secret=sim, scope), then POST ${url}/v1/coverages ` +
        `(form) -> 202 + Location, poll GET /v1/coverages/{id}; GET ${url}/simulator/stats`,
      '  sandbox payers answer from the catalog',
    ];
  if (vendor === 'optum')
    return [
      `Optum simulator (eligibility v3) listening on ${url}`,
      `  POST ${url}/apip/auth/v2/token (client_id=sim, client_secret=sim), then POST ` +
        `${url}/medicalnetwork/eligibility/v3/ or .../raw-x12; GET ${url}/simulator/stats`,
      '  payer rejections come back as HTTP 200 with errors[]; sandbox payers answer from the catalog',
    ];
  return [
    `Stedi simulator (raw X12 eligibility) listening on ${url}`,
    `  POST ${baseUrl}/change/medicalnetwork/eligibility/v3/raw-x12 with "Authorization: sim"; GET ${url}/simulator/stats`,
    "  Stedi's documented mock members answer as documented (e.g. payer 60054, Jane Doe, 2004-04-04, AETNA12345); sandbox payers answer from the catalog",
  ];
}

export async function runSimulatePayer(opts: Options): Promise<void> {
  if (opts.remit !== undefined) {
    const { runSimulateRemit } = await import('./simulate-remit.ts');
    const io = { stdout: (t: string) => void process.stdout.write(t), stderr: (t: string) => void process.stderr.write(t) };
    process.exitCode = runSimulateRemit({ ...opts, remit: opts.remit }, io);
    return;
  }
  if ((opts.as ?? 'core') !== 'core') return runVendorSimulators(opts);
  const protocol = opts.protocol;
  if (protocol !== 'mixed' && protocol !== 'core-soap' && protocol !== 'core-mime') throw new Error('--protocol must be mixed, core-soap or core-mime');
  if (opts.replay !== undefined && !(existsSync(opts.replay) && statSync(opts.replay).isDirectory()))
    throw new Error(`--replay: no such folder ${opts.replay}`);
  const sim = await PayerSimulator.start({
    port: nonNegativeInt('--port', opts.port),
    host: opts.host,
    latencyMs: nonNegativeInt('--latency-ms', opts.latencyMs),
    extraPayers: nonNegativeInt('--extra-payers', opts.extraPayers),
    ...(opts.faults ? { faults: readFaults(opts.faults) } : {}),
    ...(opts.replay !== undefined ? { replayDir: opts.replay } : {}),
  });
  const lines = [
    `Payer simulator (CAQH CORE vC2.2.0) listening on ${sim.url}`,
    `  ${sim.payers().length} payers: POST ${sim.url}/core/{payer_id}/soap or /mime`,
  ];
  if (opts.replay !== undefined)
    lines.push(`  answering with the recorded 271s in ${opts.replay} (by 2100C member ID, else name + DOB; read at each request; no match: AAA 75)`);
  if (opts.directoryOut) {
    writeFileSync(opts.directoryOut, JSON.stringify(simulatorDirectory(sim, { protocol }), null, 2) + '\n');
    lines.push(
      `  payer directory written to ${opts.directoryOut}`,
      '',
      'Run the service against it (on port 8081: a sandbox started with npm start holds 8080):',
      '  npx coverage keys create --name local --env production   (prints the API key once)',
      `  PORT=8081 ${SIMULATOR_USERNAME_ENV}=sim ${SIMULATOR_PASSWORD_ENV}=sim COVERAGE_DATA_KEY=$(openssl ` +
        `rand -hex 32) COVERAGE_MODE=production COVERAGE_PAYERS=${opts.directoryOut} npm start`,
    );
  }
  process.stdout.write(lines.join('\n') + '\n');
  const stop = () => void sim.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

export function registerSimulatePayerCommand(program: Command): void {
  program
    .command('simulate-payer')
    .description(
      'run a payer simulator answering 270s from the sandbox catalog, with fault modes: ' +
        "CAQH CORE SOAP + MIME, or a clearinghouse's API (--as stedi|optum|availity)",
    )
    .option(
      '--as <vendor>',
      'core (CAQH CORE SOAP + MIME), stedi (raw X12 API, its mock members, 429 past --max-in-flight), optum (OAuth2 + eligibility v3 JSON) ' +
        'or availity (OAuth2, form POST, 202 then poll); several vendors separated by commas (stedi,optum) run at once on --port and the ' +
        'ports after it, and the directory routes each payer through them in that order (failover rehearsal; --faults applies to the first)',
      'core',
    )
    .option('--max-in-flight <n>', 'vendor simulators: checks in flight before 429 (stedi: 5)')
    .option('--port <n>', 'port to listen on (0 picks one)', '9090')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--directory-out <file>', 'write a payer directory (COVERAGE_PAYERS) whose payers all point at this simulator')
    .option('--protocol <p>', 'directory protocol: mixed (Medicaid on MIME, others on SOAP), core-soap or core-mime', 'mixed')
    .option('--latency-ms <n>', 'latency added to every answer', '0')
    .option('--faults <file|json>', 'fault plan: {"payers":{ID:{"fault":KIND}},"members":{MEMBER_ID:{"fault":KIND,"times":N}}}')
    .option('--extra-payers <n>', 'add N synthetic payers SIM-PAYER-001... that answer searches (scan benchmarks)', '0')
    .option(
      '--replay <dir>',
      'answer each 270 with the recorded 271 in DIR (any file holding a 271: .271, .x12, ' +
        '.edi, ...) whose 2100C member ID (or name + DOB) matches; DIR is read at each request',
    )
    .option(
      '--remit <estimates.json>',
      'write the 835 the payer would send for these estimate answers (a JSON array; an entry may be {"scenario": NAME, "estimate": ANSWER}) instead of serving',
    )
    .option('--scenario <name>', '--remit: as_estimated, deductible_progressed, copay_changed ($10 more) or denied, for entries that name none', 'as_estimated')
    .option('--out <file>', '--remit: where to write the 835 (default: standard output)')
    .option('--npi <npi>', "--remit: the payee's NPI", '1234567893')
    .action(runSimulatePayer);
}

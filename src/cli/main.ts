/** The `coverage` command. */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { registerOnDemand } from './on-demand.ts';
import { systemClock } from '../domain/clock.ts';

// src/cli/ and dist/cli/ are both two folders below the package root.
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

const program = new Command('coverage').description('Insurance coverage verification service').version(version, '-V, --version');

program
  .command('serve')
  .description('serve the API (configuration from environment variables; see README)')
  // Loaded on demand: the admin commands (keys, usage) need the store only, not the engine.
  .action(async () => {
    (await import('./heap-profile.ts')).applyHeapProfile();
    await (await import('./serve.ts')).serve();
  });

program
  .command('normalize')
  .description('print the normalized coverage JSON of an X12 271 file (- for stdin)')
  .argument('<file>', '271 file, or - for stdin')
  .option('--session-cost <cents>', 'also price one session of this allowed amount (cents) and explain where each figure came from')
  .option('--out-of-network', 'price with the out-of-network benefits')
  .option('--today <date>', 'the date for plan status and resets (YYYY-MM-DD; default today, UTC)')
  .option('--fhir', 'print the FHIR R4 CoverageEligibilityResponse the FHIR door answers for this 271 (docs/fhir.md)')
  .action(async (file: string, opts: { sessionCost?: string; outOfNetwork?: boolean; today?: string; fhir?: boolean }) => {
    const { runNormalize } = await import('./normalize.ts');
    const io = { stdout: (s: string) => process.stdout.write(s), stderr: (s: string) => process.stderr.write(s) };
    if (opts.sessionCost !== undefined && !/^[0-9]{1,9}$/.test(opts.sessionCost)) {
      io.stderr('coverage normalize: --session-cost must be a whole number of cents\n');
      process.exitCode = 2;
      return;
    }
    if (opts.today !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(opts.today)) {
      io.stderr('coverage normalize: --today must be YYYY-MM-DD\n');
      process.exitCode = 2;
      return;
    }
    const price =
      opts.sessionCost === undefined
        ? undefined
        : { sessionCost: Number(opts.sessionCost), inNetwork: !opts.outOfNetwork, today: opts.today ?? systemClock.today() };
    process.exitCode = await runNormalize(file, io, price, { fhir: opts.fhir === true, ...(opts.today ? { today: opts.today } : {}) });
  });

program
  .command('batch')
  .description('send a schedule (CSV or JSON) to a server as a batch, follow it, save the results (COVERAGE_URL, COVERAGE_API_KEY)')
  .argument('[file]', 'schedule file: CSV (docs/batch.md) or JSON {"checks": [...]}')
  .option('--wait', 'follow the batch until it is done, then save the results as CSV')
  .option('--out <file>', 'where to save the results CSV (implies --wait; default BATCH_ID.csv)')
  .option('--watch <batch_id>', 'follow a batch sent earlier (after Ctrl-C) instead of sending one')
  .action(async (file: string | undefined, options: { wait?: boolean; out?: string; watch?: string }) => {
    process.exitCode = await (await import('./batch.ts')).batchCommand(file, options);
  });

// keys, usage, users, simulate-payer, check, remit: each module loads only when its command runs.
await registerOnDemand(program, process.argv.slice(2));

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`coverage: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

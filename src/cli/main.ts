/** The `coverage` command. */
import { Command } from 'commander';
import { registerOnDemand } from './on-demand.ts';

const program = new Command('coverage').description('Insurance coverage verification service');

program
  .command('serve')
  .description('serve the API (configuration from environment variables; see README)')
  // Loaded on demand: the admin commands (keys, usage) need the store only, not the engine.
  .action(async () => (await import('./serve.ts')).serve());

program
  .command('normalize')
  .description('print the normalized coverage JSON of an X12 271 file (- for stdin)')
  .argument('<file>', '271 file, or - for stdin')
  .action(async (file: string) => {
    const { runNormalize } = await import('./normalize.ts');
    process.exitCode = await runNormalize(file, { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) });
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

// keys, usage, users, simulate-payer, check: each module loads only when its command runs.
await registerOnDemand(program, process.argv.slice(2));

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`coverage: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

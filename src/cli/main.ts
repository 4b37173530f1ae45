/** The `coverage` command. */
import { Command } from 'commander';
import { registerCheckCommand } from './check.ts';
import { registerKeysCommands } from './keys.ts';
import { registerSimulatePayerCommand } from './simulate-payer.ts';
import { registerUsageCommand } from './usage.ts';

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

registerKeysCommands(program);
registerUsageCommand(program);
registerSimulatePayerCommand(program);
registerCheckCommand(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`coverage: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

/** The `coverage` command. */
import { Command } from 'commander';
import { serve } from './serve.ts';
import { registerSimulatePayerCommand } from './simulate-payer.ts';

const program = new Command('coverage').description('Insurance coverage verification service');

program
  .command('serve')
  .description('serve the API (configuration from environment variables; see README)')
  .action(serve);

program
  .command('normalize')
  .description('print the normalized coverage JSON of an X12 271 file (- for stdin)')
  .argument('<file>', '271 file, or - for stdin')
  .action(async (file: string) => {
    const { runNormalize } = await import('./normalize.ts');
    process.exitCode = await runNormalize(file, { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) });
  });

registerSimulatePayerCommand(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`coverage: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

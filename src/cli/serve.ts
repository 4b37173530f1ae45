/** `coverage serve` (what `npm start` runs): listen, print how to call, shut down gracefully. */
import { loadConfig } from './config.ts';
import { startRuntime } from './runtime.ts';

export async function serve(): Promise<void> {
  const config = loadConfig();
  const runtime = await startRuntime(config);
  const address = await runtime.app.listen({ port: config.port, host: config.host });
  const key = config.devKey ?? runtime.generatedDevKey;
  const base = address.replace('127.0.0.1', 'localhost');
  const lines = [
    '',
    `Coverage service (${config.mode}) listening on ${base}`,
    `  store: ${runtime.db.dialect === 'sqlite' ? `SQLite in ${config.dataDir}` : 'PostgreSQL'}`,
    key
      ? `  API key: ${key}${runtime.generatedDevKey ? '   (generated for this run; set COVERAGE_DEV_KEY to keep one)' : ''}`
      : '  API key: create one with `npx coverage keys create --name NAME --env production`',
    '',
    'Try it:',
    `  curl -s ${base}/v1/estimate -H 'apikey: ${key ?? '<API_KEY>'}' -H 'content-type: application/json' \\`,
    `    -d '{"member_id":"10010MHNA","member_first_name":"Avery","member_last_name":"Walsh","member_dob":"1988-03-14","provider_npi":"1234567893","provider_session_cost":"15000","in_network":true}'`,
    '',
    `Sandbox members: curl -s ${base}/v1/sandbox/members -H 'apikey: ${key ?? '<API_KEY>'}'`,
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    runtime.app.log.info({ signal }, 'shutting down');
    runtime.close().then(
      () => process.exit(0),
      (err: unknown) => {
        runtime.app.log.error({ err_type: (err as Error)?.name }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

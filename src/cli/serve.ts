/** `coverage serve` (what `npm start` runs): listen, print how to call, shut down gracefully. */
import { bannerGuide } from './banner.ts';
import { loadConfig } from '../server/config.ts';
import { startRuntime } from '../server/runtime.ts';
import { UserStore } from '../store/users.ts';

export async function serve(): Promise<void> {
  const config = loadConfig();
  const runtime = await startRuntime(config);
  const address = await runtime.app.listen({ port: config.port, host: config.host });
  // Only a key this start generated is printed (once): a configured secret never reaches a terminal or log.
  const key = runtime.generatedDevKey;
  const base = address.replace('127.0.0.1', 'localhost');
  const people = await new UserStore(runtime.db).countActive(config.mode);
  const lines = [
    '',
    `Coverage service (${config.mode}) listening on ${base}`,
    `  store: ${runtime.db.dialect === 'sqlite' ? `SQLite in ${config.dataDir}` : 'PostgreSQL'}`,
    `  console sign-in: ${people > 0 ? `${people} ${config.mode} user${people === 1 ? '' : 's'}` : 'no users yet; add people with `npx coverage users add NAME` (docs/console-access.md)'}`,
    key
      ? `  API key: ${key}   (generated for this run; set COVERAGE_DEV_KEY to keep one)`
      : config.devKey
        ? '  API key: the one set in COVERAGE_DEV_KEY'
        : '  API key: create one with `npx coverage keys create --name NAME --env production`',
    '',
    ...bannerGuide({ base, key: key ?? '<API_KEY>', mode: config.mode, payers: runtime.network.payers() }),
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

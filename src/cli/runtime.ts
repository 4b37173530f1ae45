/** Assembles a running service from a Config: store, keys, payer network, operations, HTTP app. */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../http/app.ts';
import type { PayerNetwork } from '../payers/network.ts';
import { openDb, type Db } from '../store/db.ts';
import { KeyStore } from '../store/keys.ts';
import type { Config } from './config.ts';
import { openCoverageCache, openPayerNetwork } from './payer-network.ts';

export interface Runtime {
  app: FastifyInstance;
  db: Db;
  keys: KeyStore;
  network: PayerNetwork;
  /** The dev key's secret when this start generated one (sandbox without COVERAGE_DEV_KEY). */
  generatedDevKey: string | null;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  today?: () => string;
  logStream?: NodeJS.WritableStream;
  logLevel?: string | false;
}

const systemToday = () => new Date().toISOString().slice(0, 10);

export async function startRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const today = options.today ?? systemToday;
  const network = openPayerNetwork(config, today);
  const db = await openDb({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const keys = new KeyStore(db);
  let generatedDevKey: string | null = null;
  if (config.devKey) {
    await keys.ensure(config.devKey, 'dev (COVERAGE_DEV_KEY)', config.mode);
  } else if (config.mode === 'sandbox') {
    generatedDevKey = (await keys.create({ name: 'dev (generated at start)', env: 'sandbox' })).secret;
  }
  const app = await buildApp({
    deps: { network, today, payerTimeoutMs: config.payerTimeoutMs, scanTimeoutMs: config.scanTimeoutMs, cache: openCoverageCache(config, null) },
    keys,
    ready: () => db.ping(),
    logLevel: options.logLevel ?? config.logLevel,
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
  return {
    app,
    db,
    keys,
    network,
    generatedDevKey,
    async close() {
      await app.close();
      await network.close();
      await db.close();
    },
  };
}

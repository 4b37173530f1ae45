/** Chooses the payer network and the coverage cache for a Config: the sandbox, or the directory's payers over CORE. */
import type { Redis } from 'ioredis';
import type { Metrics } from '../http/metrics.ts';
import { MemoryCoverageCache, RedisCoverageCache, countingLookups, type CoverageCache } from '../operations/cache.ts';
import { systemClock, type Clock } from '../domain/clock.ts';
import type { PayerNetwork } from '../payers/network.ts';
import { SandboxNetwork } from '../payers/sandbox/network.ts';
import { DataKey } from '../store/data-key.ts';
import type { Config } from './config.ts';

export async function openPayerNetwork(config: Config, clock: Clock, metrics?: Metrics, env: NodeJS.ProcessEnv = process.env): Promise<PayerNetwork> {
  if (config.mode === 'sandbox') return new SandboxNetwork({ clock });
  if (!config.payersFile) throw new Error('COVERAGE_MODE=production needs COVERAGE_PAYERS, the payer directory file (see docs/payer-directory.md)');
  // Loaded in production only: a sandbox start skips undici, cockatiel, the SOAP parser and the directory validator.
  const [{ loadDirectory }, { ProductionNetwork }] = await Promise.all([import('../payers/directory.ts'), import('../payers/production/network.ts')]);
  return new ProductionNetwork(loadDirectory(config.payersFile), {
    timeoutMs: config.payerTimeoutMs,
    env,
    clock,
    ...(metrics ? { onBreakerState: (connection, state) => metrics.setBreakerState(connection, state) } : {}),
  });
}

/**
 * Production only: sandbox answers are computed in process and cost nothing to repeat. Values are
 * sealed with COVERAGE_DATA_KEY; an in-memory cache without one uses a key made for this process
 * (a Redis cache without one is refused by loadConfig).
 */
export function openCoverageCache(config: Config, redis: Redis | null, metrics?: Metrics, clock: Clock = systemClock): CoverageCache | undefined {
  if (config.mode !== 'production' || config.cacheTtlMs === 0) return undefined;
  if (redis && !config.dataKey) throw new Error('a Redis coverage cache needs COVERAGE_DATA_KEY');
  const key = config.dataKey ? DataKey.fromBytes(config.dataKey) : DataKey.generate();
  const cache = redis ? new RedisCoverageCache(redis, config.cacheTtlMs, key) : new MemoryCoverageCache(config.cacheTtlMs, key, undefined, clock);
  return metrics ? countingLookups(cache, (hit) => metrics.recordCacheLookup('coverage', hit)) : cache;
}

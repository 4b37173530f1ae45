/** The Redis connection for state shared across instances (rate limits), opened at start so a wrong REDIS_URL fails fast. */
import { Redis } from 'ioredis';

export async function openRedis(url: string, onError: (err: Error) => void): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 1,
    // While Redis is away, commands fail at once (the rate limit lets checks through) instead of queueing.
    enableOfflineQueue: false,
  });
  let reported = false;
  let lastError: Error | null = null;
  redis.on('error', (err: Error) => {
    lastError = err;
    if (!reported) onError(err);
    reported = true;
  });
  redis.on('ready', () => {
    reported = false;
  });
  try {
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    throw new Error(`cannot connect to REDIS_URL: ${(lastError ?? (err as Error)).message}`);
  }
  return redis;
}

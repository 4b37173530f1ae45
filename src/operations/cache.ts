/**
 * Short-lived coverage cache: a repeat check of the same person at the same payer on the same day
 * within the TTL does not reach the payer. In memory per process, or Redis (REDIS_URL) when
 * instances share it. Keys are SHA-256 hashes, so no identity appears in a key; a cache failure
 * is a miss, never an error.
 */
import { createHash } from 'node:crypto';
import type { Inquiry } from '../domain/inquiry.ts';
import type { CoverageCache, PayerAnswerResult } from './context.ts';

export type { CoverageCache } from './context.ts';

const up = (s: string | null | undefined) => (s ?? '').trim().toUpperCase();

export function coverageCacheKey(inquiry: Inquiry): string {
  const person = (p: Inquiry['subscriber'] | null) => (p ? [up(p.member_id), up(p.first_name), up(p.last_name), p.dob ?? '', up(p.zip)] : null);
  const identity = JSON.stringify([
    inquiry.payer.id,
    inquiry.date,
    person(inquiry.subscriber),
    person(inquiry.dependent),
    inquiry.provider.npi ?? '',
    inquiry.service_types,
  ]);
  return `coverage:v1:${createHash('sha256').update(identity).digest('hex')}`;
}

export class MemoryCoverageCache implements CoverageCache {
  private readonly entries = new Map<string, { value: string; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  async get(key: string): Promise<PayerAnswerResult | null> {
    const hit = this.entries.get(key);
    if (!hit) return null;
    if (hit.expires <= Date.now()) {
      this.entries.delete(key);
      return null;
    }
    return JSON.parse(hit.value) as PayerAnswerResult;
  }

  async set(key: string, value: PayerAnswerResult): Promise<void> {
    this.entries.delete(key);
    // Maps iterate in insertion order: the first key is the oldest.
    while (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value: JSON.stringify(value), expires: Date.now() + this.ttlMs });
  }

  async close(): Promise<void> {
    this.entries.clear();
  }
}

/** Shares the cache across instances through the runtime's Redis connection (which it does not own). */
export class RedisCoverageCache implements CoverageCache {
  constructor(
    private readonly redis: Pick<import('ioredis').Redis, 'get' | 'set'>,
    private readonly ttlMs: number,
  ) {}

  async get(key: string): Promise<PayerAnswerResult | null> {
    try {
      const text = await this.redis.get(key);
      return text ? (JSON.parse(text) as PayerAnswerResult) : null;
    } catch {
      return null;
    }
  }

  async set(key: string, value: PayerAnswerResult): Promise<void> {
    try {
      await this.redis.set(key, JSON.stringify(value), 'PX', this.ttlMs);
    } catch {
      /* a lost cache write costs one more payer round trip, nothing else */
    }
  }

  async close(): Promise<void> {}
}

/** Any CoverageCache, telling each lookup's outcome (hit or miss) to `onLookup` (metrics). */
export function countingLookups(cache: CoverageCache, onLookup: (hit: boolean) => void): CoverageCache {
  return {
    async get(key) {
      const value = await cache.get(key);
      onLookup(value !== null);
      return value;
    },
    set: (key, value) => cache.set(key, value),
    close: () => cache.close(),
  };
}

/**
 * Short-lived coverage cache: a repeat check of the same person at the same payer on the same day
 * within the TTL does not reach the payer. In memory per process, or Redis (REDIS_URL) when
 * instances share it. An answer holds names, DOBs and addresses, so both keep it sealed by the data
 * key (AES-256-GCM, store/data-key.ts) under a keyed-hash name: no identity appears in a key or a
 * value. A cache failure, or a value that does not open, is a miss, never an error.
 */
import { createHash } from 'node:crypto';
import type { Inquiry } from '../domain/inquiry.ts';
import type { CoverageCache, PayerAnswerResult } from './context.ts';
import { systemClock, type Clock } from '../domain/clock.ts';

export type { CoverageCache } from './context.ts';

/** What the cache needs of the data key (store/data-key.ts DataKey). */
export interface CacheSealer {
  /** A keyed hash of the input. */
  name(input: string): string;
  seal(plain: string, context: string): string;
  /** Null when the value was not sealed by this key for this context, or was altered. */
  open(sealed: string, context: string): string | null;
}

/** The entry's name where it is kept: a keyed hash of the lookup key (itself a hash of the identity). */
const entryName = (sealer: CacheSealer, key: string) => `coverage:v2:${sealer.name(key)}`;

function openEntry(sealer: CacheSealer, name: string, sealed: string): PayerAnswerResult | null {
  const plain = sealer.open(sealed, name);
  if (plain === null) return null;
  try {
    return JSON.parse(plain) as PayerAnswerResult;
  } catch {
    return null;
  }
}

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
    // The coverage is read for the encounter (its rows filtered by date, procedure and place: docs/estimates.md section 1.1).
    inquiry.procedure_code ?? null,
    inquiry.place_of_service ?? null,
  ]);
  return `coverage:v1:${createHash('sha256').update(identity).digest('hex')}`;
}

export class MemoryCoverageCache implements CoverageCache {
  private readonly entries = new Map<string, { value: string; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly sealer: CacheSealer,
    private readonly maxEntries = 10_000,
    private readonly clock: Pick<Clock, 'now'> = systemClock,
  ) {}

  async get(key: string): Promise<PayerAnswerResult | null> {
    const name = entryName(this.sealer, key);
    const hit = this.entries.get(name);
    if (!hit) return null;
    if (hit.expires <= this.clock.now()) {
      this.entries.delete(name);
      return null;
    }
    return openEntry(this.sealer, name, hit.value);
  }

  async set(key: string, value: PayerAnswerResult): Promise<void> {
    const name = entryName(this.sealer, key);
    this.entries.delete(name);
    // Maps iterate in insertion order: the first key is the oldest.
    while (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(name, { value: this.sealer.seal(JSON.stringify(value), name), expires: this.clock.now() + this.ttlMs });
  }

  /** What this process holds, as held (names and sealed values): for inspection. */
  held(): [string, string][] {
    return [...this.entries].map(([name, e]) => [name, e.value]);
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
    private readonly sealer: CacheSealer,
  ) {}

  async get(key: string): Promise<PayerAnswerResult | null> {
    const name = entryName(this.sealer, key);
    try {
      const text = await this.redis.get(name);
      return text ? openEntry(this.sealer, name, text) : null;
    } catch {
      return null;
    }
  }

  async set(key: string, value: PayerAnswerResult): Promise<void> {
    const name = entryName(this.sealer, key);
    try {
      await this.redis.set(name, this.sealer.seal(JSON.stringify(value), name), 'PX', this.ttlMs);
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

/**
 * Request IDs (x-request-id, error bodies, logs, the audit trail's key): UUID version 7 (RFC 9562,
 * section 5.7), the Unix time in milliseconds in the first 48 bits and random bits after it. Being
 * time-ordered, each audit record lands at the end of the trail's request_id index instead of on a
 * random page of it, which made a random (version 4) ID the dearest part of writing the record
 * (docs/security.md).
 */
import { randomUUID } from 'node:crypto';
import { systemClock } from '../domain/clock.ts';

/** A version 7 UUID for the time `now` (ms since the epoch): version 4's random bits under the timestamp. */
export function newRequestId(now: number = systemClock.now()): string {
  // xxxxxxxx-xxxx-4xxx-Nxxx-xxxxxxxxxxxx: the variant nibble N (10xx) and the 74 random bits after
  // the version nibble are what version 7 keeps; the 48 bits before it become the timestamp.
  const random = randomUUID();
  const ts = now.toString(16).padStart(12, '0');
  return `${ts.slice(0, 8)}-${ts.slice(8)}-7${random.slice(15)}`;
}

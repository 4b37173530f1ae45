/**
 * OAuth2 client credentials for a connection (Optum, Availity): one token at a time, reused until
 * shortly before it expires (10 % of its life, at most a minute), fetched once for all callers
 * waiting at that moment; a 401 on a call drops it so the next fetch is fresh.
 */
import type { Pool } from 'undici';
import { systemClock, type Clock } from '../../domain/clock.ts';
import { RouteRefused } from '../production/errors.ts';
import { httpFailure, jsonBody, request } from '../production/transport.ts';

export interface TokenSource {
  path: string;
  /** The request fields (client_id, client_secret, grant_type, scope...). */
  fields: Record<string, string>;
  /** How they are sent: form-urlencoded (RFC 6749, the default) or a JSON object (Optum's Security v2). */
  body?: 'form' | 'json';
}

export class TokenCache {
  private token: { value: string; refreshAt: number } | null = null;
  private pending: Promise<string> | null = null;

  constructor(
    private readonly pool: Pool,
    private readonly name: string,
    private readonly source: TokenSource,
    private readonly clock: Clock = systemClock,
  ) {}

  async get(signal: AbortSignal): Promise<string> {
    if (this.token && this.clock.now() < this.token.refreshAt) return this.token.value;
    this.pending ??= this.fetch(signal).finally(() => (this.pending = null));
    return this.pending;
  }

  /** The far end refused this token (401): the next get() fetches another. */
  drop(value: string): void {
    if (this.token?.value === value) this.token = null;
  }

  private async fetch(signal: AbortSignal): Promise<string> {
    const answer = await request(
      this.pool,
      this.name,
      {
        method: 'POST',
        path: this.source.path,
        headers: { 'content-type': this.source.body === 'json' ? 'application/json' : 'application/x-www-form-urlencoded' },
        body: this.source.body === 'json' ? JSON.stringify(this.source.fields) : new URLSearchParams(this.source.fields).toString(),
      },
      signal,
    );
    if (answer.status === 400 || answer.status === 401 || answer.status === 403)
      throw new RouteRefused(this.name, `token request refused (HTTP ${answer.status}): check the client ID and secret`);
    if (answer.status !== 200) throw httpFailure(this.name, answer);
    const body = jsonBody(answer) as { access_token?: unknown; expires_in?: unknown } | null;
    if (typeof body?.access_token !== 'string' || body.access_token === '') throw new RouteRefused(this.name, 'token answer without access_token');
    const lifeMs = (typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 300) * 1000;
    this.token = { value: body.access_token, refreshAt: this.clock.now() + lifeMs - Math.min(60_000, lifeMs / 10) };
    return body.access_token;
  }
}

/**
 * A typed client for the coverage API: one method per endpoint, request and result types from the
 * same TypeBox schemas the server validates and serializes with, errors as CoverageApiError.
 */
import type {
  DeliveryAnswer,
  DeliveryList,
  DiscoverRequest,
  DiscoverResponse,
  EstimateRequest,
  EstimateResponse,
  MedicaidRequest,
  MedicaidResponse,
  Monitor,
  MonitorCheckResult,
  MonitorCreated,
  MonitorCreateRequest,
  MonitorList,
  MonitorsCreated,
  MonitorsCreateRequest,
  PayersResponse,
  SandboxMembersResponse,
  ScanRequest,
  ScanResponse,
  Webhook,
  WebhookCreated,
  WebhookCreateRequest,
  WebhookList,
} from './api-types.ts';
import { CoverageApiError, errorFromResponse } from './errors.ts';
import { retryAfterMs } from './retry-after.ts';

export interface CoverageClientOptions {
  /** Where the service runs, e.g. http://localhost:8080 (a path prefix is kept). */
  baseUrl: string;
  apiKey: string;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** How many times a 429 is retried after its Retry-After; default 2. */
  maxRetries?: number;
  /** A 429 asking for a longer wait than this is thrown instead of retried; default 60 000 ms. */
  maxRetryDelayMs?: number;
  /** Deadline of one attempt; default 60 000 ms. */
  timeoutMs?: number;
  /** How the client waits before a retry; tests inject one that does not. */
  sleep?: (ms: number) => Promise<void>;
  /** The clock a Retry-After HTTP date is measured against; defaults to Date.now. */
  now?: () => number;
  /** Told before each retry, e.g. to print that the client is waiting. */
  onRetry?: (retry: { attempt: number; delayMs: number; error: CoverageApiError }) => void;
}

const query = (page: { offset?: number; limit?: number }) => {
  const params = new URLSearchParams();
  if (page.offset !== undefined) params.set('offset', String(page.offset));
  if (page.limit !== undefined) params.set('limit', String(page.limit));
  const text = params.toString();
  return text ? `?${text}` : '';
};

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** When a 429 carries no Retry-After: 1 s, 2 s, 4 s... */
const backoffMs = (attempt: number) => 1000 * 2 ** attempt;

export class CoverageClient {
  private readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly fetch: typeof fetch;
  private readonly maxRetries: number;
  private readonly maxRetryDelayMs: number;
  private readonly timeoutMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly onRetry: CoverageClientOptions['onRetry'];

  constructor(options: CoverageClientOptions) {
    if (!options.baseUrl) throw new TypeError('CoverageClient: baseUrl is required');
    if (!options.apiKey) throw new TypeError('CoverageClient: apiKey is required');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.fetch = options.fetch ?? globalThis.fetch;
    this.maxRetries = Math.max(0, options.maxRetries ?? 2);
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.sleep = options.sleep ?? realSleep;
    this.now = options.now ?? Date.now;
    this.onRetry = options.onRetry;
  }

  /** POST /v1/estimate. A 206 partial resolves, with `error_code` set. */
  estimate(request: EstimateRequest): Promise<EstimateResponse> {
    return this.call('POST', '/v1/estimate', request);
  }

  /** POST /v1/discover */
  discover(request: DiscoverRequest): Promise<DiscoverResponse> {
    return this.call('POST', '/v1/discover', request);
  }

  /** POST /v1/scan */
  scan(request: ScanRequest): Promise<ScanResponse> {
    return this.call('POST', '/v1/scan', request);
  }

  /** POST /v1/medicaid */
  medicaid(request: MedicaidRequest): Promise<MedicaidResponse> {
    return this.call('POST', '/v1/medicaid', request);
  }

  /** GET /v1/payers: the payers this server reaches. */
  payers(): Promise<PayersResponse> {
    return this.call('GET', '/v1/payers');
  }

  /** GET /v1/sandbox/members (sandbox servers only). */
  sandboxMembers(): Promise<SandboxMembersResponse> {
    return this.call('GET', '/v1/sandbox/members');
  }

  /** POST /v1/monitors: watch a patient (docs/monitoring.md). */
  createMonitor(request: MonitorCreateRequest): Promise<MonitorCreated> {
    return this.call('POST', '/v1/monitors', request);
  }

  /** POST /v1/monitors/bulk with JSON: many monitors at once. */
  createMonitors(request: MonitorsCreateRequest): Promise<MonitorsCreated> {
    return this.call('POST', '/v1/monitors/bulk', request);
  }

  /** GET /v1/monitors: a page of this key's monitors. */
  listMonitors(page: { offset?: number; limit?: number } = {}): Promise<MonitorList> {
    return this.call('GET', `/v1/monitors${query(page)}`);
  }

  /** GET /v1/monitors/{id} */
  getMonitor(id: string): Promise<Monitor> {
    return this.call('GET', `/v1/monitors/${encodeURIComponent(id)}`);
  }

  /** POST /v1/monitors/{id}/check: check now. */
  checkMonitor(id: string): Promise<MonitorCheckResult> {
    return this.call('POST', `/v1/monitors/${encodeURIComponent(id)}/check`);
  }

  /** DELETE /v1/monitors/{id}: stop watching (the snapshot is deleted). */
  deleteMonitor(id: string): Promise<{ id: string; deleted: boolean }> {
    return this.call('DELETE', `/v1/monitors/${encodeURIComponent(id)}`);
  }

  /** POST /v1/webhooks: answers the signing secret, once. */
  createWebhook(request: WebhookCreateRequest): Promise<WebhookCreated> {
    return this.call('POST', '/v1/webhooks', request);
  }

  /** GET /v1/webhooks */
  listWebhooks(): Promise<WebhookList> {
    return this.call('GET', '/v1/webhooks');
  }

  /** GET /v1/webhooks/{id} */
  getWebhook(id: string): Promise<Webhook> {
    return this.call('GET', `/v1/webhooks/${encodeURIComponent(id)}`);
  }

  /** DELETE /v1/webhooks/{id} */
  deleteWebhook(id: string): Promise<{ id: string; deleted: boolean }> {
    return this.call('DELETE', `/v1/webhooks/${encodeURIComponent(id)}`);
  }

  /** POST /v1/webhooks/{id}/test: queues a webhook.test event. */
  testWebhook(id: string): Promise<DeliveryAnswer> {
    return this.call('POST', `/v1/webhooks/${encodeURIComponent(id)}/test`);
  }

  /** GET /v1/webhooks/{id}/deliveries: the delivery log, newest first. */
  webhookDeliveries(id: string, page: { offset?: number; limit?: number } = {}): Promise<DeliveryList> {
    return this.call('GET', `/v1/webhooks/${encodeURIComponent(id)}/deliveries${query(page)}`);
  }

  /** POST /v1/webhooks/{id}/deliveries/{delivery_id}/redeliver: the same webhook-id, sent again. */
  redeliver(id: string, deliveryId: string): Promise<DeliveryAnswer> {
    return this.call('POST', `/v1/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`);
  }

  private async call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const res = await this.fetch(this.baseUrl + path, {
        method,
        headers: { apikey: this.apiKey, accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (res.ok) return (await this.readJson(res)) as T;
      const retryAfter = res.status === 429 ? retryAfterMs(res.headers.get('retry-after'), this.now()) : null;
      const error = await errorFromResponse(res, retryAfter);
      if (res.status !== 429 || attempt >= this.maxRetries) throw error;
      const delayMs = retryAfter ?? backoffMs(attempt);
      if (delayMs > this.maxRetryDelayMs) throw error;
      this.onRetry?.({ attempt: attempt + 1, delayMs, error });
      await this.sleep(delayMs);
    }
  }

  private async readJson(res: Response): Promise<unknown> {
    const text = await res.text();
    try {
      return JSON.parse(text);
    } catch {
      throw new CoverageApiError({
        status: res.status,
        error_code: 'UNEXPECTED_RESPONSE',
        message: `HTTP ${res.status} with a body that is not JSON`,
        request_id: res.headers.get('x-request-id'),
      });
    }
  }
}

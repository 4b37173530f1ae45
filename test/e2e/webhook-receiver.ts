/**
 * A practice's webhook receiver on loopback (node:http), verifying deliveries with the
 * `standardwebhooks` package, as docs/monitoring.md tells receivers to: a library of the
 * specification, not the service's signer nor the test's own HMAC.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { eventually } from '../helpers/eventually.ts';

export interface Delivery {
  headers: Record<string, string>;
  body: string;
}

export interface WebhookReceiver {
  url: string;
  received: Delivery[];
  /** Resolves at the next delivery received (or at once when one came since the last call). */
  arrival(): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: Delivery[] = [];
  let wake: (() => void) | null = null;
  let pending = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      received.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
      res.end('ok');
      pending = true;
      wake?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/coverage-events`,
    received,
    arrival: () =>
      new Promise<void>((resolve) => {
        if (pending) {
          pending = false;
          return resolve();
        }
        wake = () => {
          wake = null;
          pending = false;
          resolve();
        };
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface VerifiedEvent {
  webhookId: string;
  raw: string;
  event: { type: string; timestamp: string; data: Record<string, any> };
}

/**
 * Waits until the receiver has a delivery of `type` and the service's log says it was delivered,
 * and returns it verified with the webhook's secret. Each round also reads the service's delivery log: an attempt that failed (such as the
 * bundle's `TypeError` before the fix) fails the test at once, naming its `last_error`. Bounded: a
 * delivery that neither arrives nor fails within `tries` polls fails the test.
 */
export async function deliveredEvent(
  receiver: WebhookReceiver,
  hook: { id: string; secret: string },
  type: string,
  deliveries: (
    hookId: string,
  ) => Promise<{ id: string; event_type: string; state: string; attempts: number; last_error: string | null; last_status: number | null }[]>,
  tries = 600,
): Promise<VerifiedEvent> {
  const verifier = new Webhook(hook.secret);
  // Polled again at each arrival, or a moment later for another look at the delivery log.
  return eventually(
    `the ${type} delivery`,
    async () => {
      const log = await deliveries(hook.id);
      const failed = log.find((d) => d.event_type === type && d.attempts > 0 && (d.last_error !== null || d.last_status !== 200));
      assert.equal(failed, undefined, `the ${type} delivery failed: ${JSON.stringify(failed)}`);
      for (const delivery of receiver.received) {
        const event = verifier.verify(delivery.body, delivery.headers) as VerifiedEvent['event'];
        const webhookId = delivery.headers['webhook-id']!;
        // Returned once the service has also recorded it delivered (it records after the receiver answers).
        if (event.type === type && log.some((d) => d.id === webhookId && d.state === 'delivered')) return { webhookId, raw: delivery.body, event };
      }
      return undefined;
    },
    { tries, pauseMs: 100, wake: () => receiver.arrival() },
  );
}

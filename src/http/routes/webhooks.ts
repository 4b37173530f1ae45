/**
 * /v1/webhooks (docs/monitoring.md): where events are sent, signed per the Standard Webhooks
 * specification, with a delivery log and manual redelivery. A webhook and its deliveries belong
 * to the owner of the key that created it; any other key gets 404.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { newWebhookSecret } from '../../operations/monitoring/signature.ts';
import {
  DeliveryAnswer,
  DeliveryList,
  DeliveryParams,
  IdParams,
  PageQuery,
  Webhook,
  WebhookCreated,
  WebhookCreateRequest,
  WebhookList,
} from '../../domain/schemas/monitors.ts';
import { ErrorResponse } from '../../domain/schemas/responses.ts';
import { TargetRefused } from '../../operations/errors.ts';
import { checkTarget } from '../../operations/monitoring/webhook-target.ts';
import { ownerOf } from '../../store/keys.ts';
import { newEventId, type DeliveryRow, type StoredWebhook, type WebhookStore } from '../../store/webhooks.ts';
import { HttpErrors } from '../errors.ts';
import { page } from './monitors.ts';
import { dateOf, type Clock } from '../../domain/clock.ts';

export interface WebhookRouteOptions {
  store: WebhookStore;
  clock: Clock;
  allowInsecure: boolean;
  maxPerOwner: number;
  wakeDeliveries: () => void;
}

const presentDelivery = (d: DeliveryRow) => ({
  id: d.id,
  event_type: d.event_type,
  state: d.state,
  attempts: d.attempts,
  last_status: d.last_status,
  last_error: d.last_error,
  created_at: d.created_at,
  last_attempt_at: d.last_attempt_at,
  next_attempt_at: d.next_attempt_at,
});

export async function registerWebhookRoutes(app: FastifyInstance, options: WebhookRouteOptions): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { store } = options;

  const owned = async (id: string, request: FastifyRequest): Promise<StoredWebhook> => {
    const hook = await store.get(id, ownerOf(request.apiKey!));
    if (!hook) throw HttpErrors.noWebhook(id);
    return hook;
  };

  api.post(
    '/v1/webhooks',
    {
      schema: {
        operationId: 'createWebhook',
        'x-success-description': 'Created: the webhook and its signing secret, shown this once.',
        tags: ['webhooks'],
        summary: 'Send events to a URL; answers the signing secret, once',
        description:
          'The URL must be https and its host must resolve only to public addresses (checked now and at each delivery). ' +
          'Keep the secret: it verifies the webhook-signature header of every delivery and is not shown again.',
        body: WebhookCreateRequest,
        response: { 201: WebhookCreated, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request, reply) => {
      const owner = ownerOf(request.apiKey!);
      try {
        await checkTarget(request.body.url, options.allowInsecure);
      } catch (err) {
        if (!(err instanceof TargetRefused)) throw err;
        throw HttpErrors.invalid(err.message).with({ errors: [{ field: 'url', message: err.message }] });
      }
      if ((await store.list(owner)).length >= options.maxPerOwner) {
        throw HttpErrors.webhookLimit(options.maxPerOwner);
      }
      const secret = newWebhookSecret();
      const hook = await store.create(
        { ownerId: owner, keyId: request.apiKey!.id, url: request.body.url, events: [...request.body.events], secret },
        dateOf(options.clock),
      );
      reply.code(201).header('location', `/v1/webhooks/${hook.id}`);
      return { ...hook, secret };
    },
  );

  api.get(
    '/v1/webhooks',
    {
      schema: {
        operationId: 'listWebhooks',
        'x-success-description': 'The webhooks.',
        tags: ['webhooks'],
        summary: "This key's webhooks",
        description: 'Each with its URL and event types. Secrets are never shown again after creation.',
        response: { 200: WebhookList, 401: ErrorResponse },
      },
    },
    async (request) => ({ webhooks: await store.list(ownerOf(request.apiKey!)) }),
  );

  api.get(
    '/v1/webhooks/:id',
    {
      schema: {
        operationId: 'getWebhook',
        'x-success-description': 'The webhook.',
        tags: ['webhooks'],
        summary: 'A webhook: its URL and event types',
        description: 'The secret is not shown: it was answered once, at creation. Delete the webhook and create another to get a new one.',
        params: IdParams,
        response: { 200: Webhook, 401: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => owned(request.params.id, request),
  );

  api.delete(
    '/v1/webhooks/:id',
    {
      schema: {
        operationId: 'deleteWebhook',
        'x-success-description': 'Deleted, with its delivery log.',
        tags: ['webhooks'],
        summary: 'Stop sending events to a URL: deletes the webhook and its delivery log',
        description: 'Deliveries not sent yet are dropped with it.',
        params: IdParams,
        response: { 200: Type.Object({ id: Type.String(), deleted: Type.Boolean() }), 401: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => {
      if (!(await store.delete(request.params.id, ownerOf(request.apiKey!)))) throw HttpErrors.noWebhook(request.params.id);
      return { id: request.params.id, deleted: true };
    },
  );

  api.post(
    '/v1/webhooks/:id/test',
    {
      schema: {
        operationId: 'testWebhook',
        'x-success-description': 'Queued: the delivery of the test event.',
        tags: ['webhooks'],
        summary: 'Queue a webhook.test event to this webhook, signed like any other',
        description: 'Answers the queued delivery; follow it with GET /v1/webhooks/{id}/deliveries. The event carries no member data.',
        params: IdParams,
        response: { 202: DeliveryAnswer, 401: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request, reply) => {
      const hook = await owned(request.params.id, request);
      const now = dateOf(options.clock);
      const [id] = await store.enqueue(
        null,
        ownerOf(request.apiKey!),
        { id: newEventId(), type: 'webhook.test', timestamp: now.toISOString(), data: { webhook_id: hook.id } },
        hook.id,
        now,
      );
      options.wakeDeliveries();
      const delivery = id ? await store.delivery(hook.id, id) : undefined;
      if (!delivery) throw HttpErrors.noWebhook(hook.id);
      reply.code(202);
      return { delivery: presentDelivery(delivery) };
    },
  );

  api.get(
    '/v1/webhooks/:id/deliveries',
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        'x-success-description': 'A page of deliveries.',
        tags: ['webhooks'],
        summary: "The webhook's delivery log, newest first",
        description:
          "Each event sent or to be sent: its state, attempts, the receiver's last status and the next attempt. Pages of `limit` (default 50, at most 200).",
        params: IdParams,
        querystring: PageQuery,
        response: { 200: DeliveryList, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => {
      const hook = await owned(request.params.id, request);
      const { offset, limit } = page(request.query);
      const rows = await store.deliveries(hook.id, offset, limit + 1);
      return { deliveries: rows.slice(0, limit).map(presentDelivery), offset, next_offset: rows.length > limit ? offset + limit : null };
    },
  );

  api.post(
    '/v1/webhooks/:id/deliveries/:delivery_id/redeliver',
    {
      schema: {
        operationId: 'redeliverWebhookDelivery',
        'x-success-description': 'Queued again: the delivery.',
        tags: ['webhooks'],
        summary: 'Send a delivery again, with the same webhook-id',
        description:
          'Whatever its state: it is sent as soon as a worker is free, and retried for another ' +
          '24 h if it fails. Receivers that deduplicate by webhook-id see it as the same event.',
        params: DeliveryParams,
        response: { 202: DeliveryAnswer, 401: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request, reply) => {
      const hook = await owned(request.params.id, request);
      if (!(await store.redeliver(hook.id, request.params.delivery_id, dateOf(options.clock)))) {
        throw HttpErrors.noDelivery(request.params.delivery_id, hook.id);
      }
      options.wakeDeliveries();
      const delivery = await store.delivery(hook.id, request.params.delivery_id);
      reply.code(202);
      return { delivery: presentDelivery(delivery!) };
    },
  );
}

/** One audit record per check (store/audit.ts), a FHIR Bundle's each: who asked, which endpoint and payer, the outcome, and a keyed hash of whom. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ExchangeRecord } from '../operations/context.ts';
import type { AuditEvent, AuditWriter } from '../store/audit.ts';
import { identityOf, type MemberHasher } from '../store/member-hash.ts';
import { checkEndpoint, FHIR_SUBMIT_PATH, type CheckAudit } from './check-routes.ts';
import { isoNow, systemClock, type Clock } from '../domain/clock.ts';

declare module 'fastify' {
  interface FastifyRequest {
    memberHash: string | null;
    /** This request's audit record is queued: one record per request, whatever runs onSend again. */
    auditRecorded: boolean;
  }
}

export interface AuditHookOptions {
  audit: AuditWriter;
  hashMember: MemberHasher;
  /** Whether the network has this payer: the trail records payer IDs it knows, never caller text. */
  knownPayer: (payerId: string) => boolean;
  /** The service's clock: the records' times. */
  clock?: Clock;
}

const AUDIT_UNAVAILABLE = 'The check could not be recorded in the audit trail (the store is unreachable), so its answer is withheld; try again shortly';

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

export function installAuditHook(app: FastifyInstance, options: AuditHookOptions): void {
  const clock = options.clock ?? systemClock;
  const knownOrNull = (payerId: string | null) => (payerId !== null && options.knownPayer(payerId) ? payerId : null);
  app.decorateRequest('memberHash', null);
  // A flag on the request rather than a WeakSet of requests: weak entries cost every garbage collection.
  app.decorateRequest('auditRecorded', false);

  // After validation: only a well-formed body names a member. The FHIR door's body is FHIR, not a check:
  // its checks are hashed one by one once translated (checkAudits), never the resource as a whole.
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.apiKey && checkEndpoint(request) && request.routeOptions.url !== FHIR_SUBMIT_PATH)
      request.memberHash = options.hashMember(identityOf(request.body));
    done();
  });

  /** A record per check a FHIR request ran (a Bundle runs up to 20): the status and code the check ended with, unless the whole answer failed. */
  const checkEvents = (request: FastifyRequest, reply: FastifyReply, audits: CheckAudit[], at: string): AuditEvent[] =>
    audits.map((check) => {
      const failed = reply.statusCode >= 400;
      const event: AuditEvent = {
        request_id: check.request_id,
        at,
        key_id: request.apiKey!.id,
        endpoint: check.operation,
        payer_id: knownOrNull(check.payerId),
        // An answer that was not sent (a later check of the Bundle failed the request): the request's status.
        status: failed ? reply.statusCode : check.status,
        error_code: failed ? request.errorCode : check.errorCode,
        latency_ms: Math.round(check.latencyMs),
        member_hash: check.body === null ? null : options.hashMember(identityOf(check.body)),
        user_id: request.user?.id ?? null,
      };
      if (check.exchange) withExchange(event, check.exchange);
      return event;
    });

  /** Not recorded, not disclosed: the answer is withheld, and the records kept for retry say so. */
  const withheld = (request: FastifyRequest, reply: FastifyReply, unwritten: AuditEvent[]) => {
    for (const event of unwritten) {
      event.status = 503;
      event.error_code = 'SERVICE_UNAVAILABLE';
    }
    request.errorCode = 'SERVICE_UNAVAILABLE';
    reply.code(503).type('application/json; charset=utf-8').header('retry-after', '5');
    return JSON.stringify({ error_code: 'SERVICE_UNAVAILABLE', message: AUDIT_UNAVAILABLE, request_id: request.id });
  };

  // onSend rather than onResponse: the record is committed before the client can see the answer, so
  // no crash (kill -9 included) loses the record of an answer that was sent.
  app.addHook('onSend', async (request, reply, payload) => {
    const endpoint = checkEndpoint(request);
    if (!request.apiKey || !endpoint || request.auditRecorded) return payload;
    request.auditRecorded = true;
    const checks = request.checkAudits;
    if (checks && checks.length > 0) {
      // Written in the same turn, so they share a commit (audit.ts).
      const events = checkEvents(request, reply, checks, isoNow(clock));
      const written = await Promise.all(events.map((e) => options.audit.write(e)));
      return written.every(Boolean)
        ? payload
        : withheld(
            request,
            reply,
            events.filter((_, i) => !written[i]),
          );
    }
    const event: AuditEvent = {
      request_id: request.id,
      at: isoNow(clock),
      key_id: request.apiKey.id,
      endpoint,
      // The payer that answered, or, when the check failed before one did, the payer the caller
      // named if the network knows it: a rejected body's payer_id may be anything, a name included.
      // (A FHIR request refused before any of its checks ran names none: its body is not ours.)
      payer_id: knownOrNull(request.payerId ?? (checks ? null : text((request.body as Record<string, unknown> | undefined)?.payer_id))),
      status: reply.statusCode,
      // The code the error handler (errors.ts) or the operation's partial answer (routes/v1.ts) noted.
      error_code: reply.statusCode === 200 ? null : request.errorCode,
      latency_ms: Math.round(reply.elapsedTime),
      member_hash: request.memberHash,
      user_id: request.user?.id ?? null,
    };
    const exchange = request.payerExchange;
    if (exchange) withExchange(event, exchange);
    if (await options.audit.write(event)) return payload;
    return withheld(request, reply, [event]);
  });
}

/** Set one by one rather than spread into the literal (a spread copies through a slow path in Node 20); same keys, same order. */
function withExchange(event: AuditEvent, exchange: ExchangeRecord): void {
  event.route = exchange.route;
  event.control_number = exchange.control_number === null ? null : String(exchange.control_number).padStart(9, '0');
  event.trace_number = exchange.trace_number;
}

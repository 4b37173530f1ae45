/** One audit record per check (store/audit.ts): who asked, which endpoint and payer, the outcome, and a keyed hash of whom. */
import type { FastifyInstance } from 'fastify';
import type { AuditEvent, AuditWriter } from '../store/audit.ts';
import { identityOf, type MemberHasher } from '../store/member-hash.ts';
import { checkEndpoint } from './check-routes.ts';

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
}

const AUDIT_UNAVAILABLE = 'The check could not be recorded in the audit trail (the store is unreachable), so its answer is withheld; try again shortly';

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

export function installAuditHook(app: FastifyInstance, options: AuditHookOptions): void {
  const knownOrNull = (payerId: string | null) => (payerId !== null && options.knownPayer(payerId) ? payerId : null);
  app.decorateRequest('memberHash', null);
  // A flag on the request rather than a WeakSet of requests: weak entries cost every garbage collection.
  app.decorateRequest('auditRecorded', false);

  // After validation: only a well-formed body names a member.
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.apiKey && checkEndpoint(request)) request.memberHash = options.hashMember(identityOf(request.body));
    done();
  });

  // onSend rather than onResponse: the record is committed before the client can see the answer, so
  // no crash (kill -9 included) loses the record of an answer that was sent.
  app.addHook('onSend', async (request, reply, payload) => {
    const endpoint = checkEndpoint(request);
    if (!request.apiKey || !endpoint || request.auditRecorded) return payload;
    request.auditRecorded = true;
    const event: AuditEvent = {
      request_id: request.id,
      at: new Date().toISOString(),
      key_id: request.apiKey.id,
      endpoint,
      // The payer that answered, or, when the check failed before one did, the payer the caller
      // named if the network knows it: a rejected body's payer_id may be anything, a name included.
      payer_id: knownOrNull(request.payerId ?? text(((request.checkBody ?? request.body) as Record<string, unknown> | undefined)?.payer_id)),
      status: reply.statusCode,
      // The code the error handler (errors.ts) or the operation's partial answer (routes/v1.ts) noted.
      error_code: reply.statusCode === 200 ? null : request.errorCode,
      latency_ms: Math.round(reply.elapsedTime),
      member_hash: request.checkBody ? options.hashMember(identityOf(request.checkBody)) : request.memberHash,
      user_id: request.user?.id ?? null,
    };
    // Set one by one rather than spread into the literal (a spread copies through a slow path in Node 20); same keys, same order.
    const exchange = request.payerExchange;
    if (exchange) {
      event.route = exchange.route;
      event.control_number = exchange.control_number === null ? null : String(exchange.control_number).padStart(9, '0');
      event.trace_number = exchange.trace_number;
    }
    if (await options.audit.write(event)) return payload;
    // Not recorded, not disclosed: the answer is withheld, and the record kept for retry says so.
    event.status = 503;
    event.error_code = request.errorCode = 'SERVICE_UNAVAILABLE';
    reply.code(503).type('application/json; charset=utf-8').header('retry-after', '5');
    return JSON.stringify({ error_code: 'SERVICE_UNAVAILABLE', message: AUDIT_UNAVAILABLE, request_id: request.id });
  });
}

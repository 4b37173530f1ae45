/**
 * Sign-ins, failed sign-ins and sign-outs go to the audit trail beside the checks (HIPAA
 * §164.312(b)): who (the user id, or `-` when the typed username matches nobody: the name itself is
 * never kept), when, and the outcome, committed before the answer is sent (kill -9 loses none).
 * `coverage usage` counts checks only and leaves these out.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuditEvent, AuditWriter } from '../../store/audit.ts';
import { isoNow, systemClock, type Clock } from '../../domain/clock.ts';

export type AccessEvent = 'console_sign_in' | 'console_sign_in_failed' | 'console_sign_out';

/** The key_id of a failed sign-in whose username matches no user. */
export const UNKNOWN_USER = '-';

/**
 * Writes the record before the answer is sent, as a check's is (audit-hook.ts): true once committed.
 * False when the store refused it: the record stays queued for retry, saying 503, and the route
 * answers 503 rather than a sign-in that left no trace.
 */
export type AccessRecorder = (
  request: FastifyRequest,
  reply: FastifyReply,
  event: AccessEvent,
  userId: string | null,
  status: number,
  reason?: string,
) => Promise<boolean>;

export function accessRecorder(writer: AuditWriter | null, clock: Clock = systemClock): AccessRecorder {
  if (!writer) return async () => true;
  return async (request, reply, event, userId, status, reason) => {
    const record: AuditEvent = {
      request_id: request.id,
      at: isoNow(clock),
      key_id: userId ?? UNKNOWN_USER,
      endpoint: event,
      payer_id: null,
      status,
      // Why a sign-in failed (no_such_user, bad_password, locked...): for the reviewer, never shown to the person.
      error_code: reason ?? null,
      latency_ms: Math.round(reply.elapsedTime),
      member_hash: null,
      user_id: userId,
    };
    if (await writer.write(record)) return true;
    record.status = 503;
    record.error_code = 'SERVICE_UNAVAILABLE';
    return false;
  };
}

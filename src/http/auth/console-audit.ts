/**
 * Sign-ins, failed sign-ins and sign-outs go to the audit trail beside the checks (HIPAA
 * §164.312(b)): who (the user id, or `-` when the typed username matches nobody: the name itself is
 * never kept), when, and the outcome. `coverage usage` counts checks only and leaves these out.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuditWriter } from '../../store/audit.ts';

export type AccessEvent = 'console_sign_in' | 'console_sign_in_failed' | 'console_sign_out';

/** The key_id of a failed sign-in whose username matches no user. */
export const UNKNOWN_USER = '-';

export type AccessRecorder = (request: FastifyRequest, reply: FastifyReply, event: AccessEvent, userId: string | null, status: number, reason?: string) => void;

export function accessRecorder(writer: AuditWriter | null): AccessRecorder {
  if (!writer) return () => {};
  return (request, reply, event, userId, status, reason) =>
    writer.record({
      request_id: request.id,
      at: new Date().toISOString(),
      key_id: userId ?? UNKNOWN_USER,
      endpoint: event,
      payer_id: null,
      status,
      // Why a sign-in failed (no_such_user, bad_password, locked...): for the reviewer, never shown to the person.
      error_code: reason ?? null,
      latency_ms: Math.round(reply.elapsedTime),
      member_hash: null,
      user_id: userId,
    });
}

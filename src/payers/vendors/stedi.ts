/**
 * Stedi's real-time eligibility API, raw X12 flavour (every vendor fact about Stedi lives here).
 * POST {base}/change/medicalnetwork/eligibility/v3/raw-x12 with `{"x12": the 270}` and the header
 * `Authorization: <api key>` (or, with `"format": "json"`, POST {base}/change/medicalnetwork/eligibility/v3
 * with the v3 JSON model, eligibility-v3.ts); the answer is Stedi's JSON with the 271 in `x12`, whatever the status:
 * a payer's AAA rejection may come as HTTP 400 with the full body. Stedi's own 4xx carry
 * `{error?, code?, message}`; an unknown payer ID is AAA 79 or error 33 "not configured".
 * 5 checks in flight per account by default (a sixth gets 429).
 */
import type { Pool } from 'undici';
import type { PayerErrorEntry } from '../../domain/schemas/responses.ts';
import { detectTransactionSet, parse270 } from '../../x12/index.ts';
import { payerError } from '../../x12/payer-errors.ts';
import { PayerError } from '../network.ts';
import { RouteRefused } from '../production/errors.ts';
import { httpFailure, jsonBody, request } from '../production/transport.ts';
import { requestFromInquiry, v3ToX12 } from './eligibility-v3.ts';
import type { RouteTarget, VendorClient } from './types.ts';

export const STEDI_RAW_X12_PATH = '/change/medicalnetwork/eligibility/v3/raw-x12';
export const STEDI_JSON_PATH = '/change/medicalnetwork/eligibility/v3';
export const STEDI_DEFAULT_IN_FLIGHT = 5;

interface StediError {
  code?: unknown;
  description?: unknown;
  followupAction?: unknown;
  location?: unknown;
}

/** The error codes of a Stedi body: top-level `code` and `errors[].code`. */
export function stediErrorCodes(body: unknown): string[] {
  if (!body || typeof body !== 'object') return [];
  const b = body as { code?: unknown; errors?: unknown };
  const codes = Array.isArray(b.errors) ? (b.errors as StediError[]).map((e) => e?.code) : [];
  return [b.code, ...codes].filter((c): c is string => typeof c === 'string' && /^[0-9A-Za-z_]{1,40}$/.test(c));
}

/** Stedi saying this route cannot reach the payer: AAA 79 or error 33 without a payer's 271, or "not configured". */
function notConfigured(body: unknown): boolean {
  const codes = stediErrorCodes(body);
  const message = (body as { message?: unknown } | null)?.message;
  return codes.includes('79') || codes.includes('33') || (typeof message === 'string' && /not configured/i.test(message));
}

/** Stedi's JSON `errors[]` in our words: code and follow-up from our tables, the loop from `location`. */
export function stediPayerErrors(body: unknown): PayerErrorEntry[] {
  const list = Array.isArray((body as { errors?: unknown } | null)?.errors) ? (body as { errors: StediError[] }).errors : [];
  return list.map((e) => {
    const loop = typeof e?.location === 'string' ? (/2[01][01]0[A-D]/.exec(e.location)?.[0] ?? null) : null;
    const followup = typeof e?.followupAction === 'string' ? (FOLLOWUP_CODES[e.followupAction.trim().toLowerCase()] ?? null) : null;
    return payerError(typeof e?.code === 'string' ? e.code : '', followup, loop);
  });
}

/** Stedi spells AAA04 out; back to the code. */
const FOLLOWUP_CODES: Record<string, string> = {
  'please correct and resubmit': 'C',
  'resubmission not allowed': 'N',
  'please resubmit original transaction': 'P',
  'resubmission allowed': 'R',
  'do not resubmit; inquiry initiated to a third party': 'S',
  'please wait 30 days and resubmit': 'W',
  'please wait 10 days and resubmit': 'X',
  'do not resubmit; we will hand deliver': 'Y',
};

const isaControl = (x12: string) => {
  const at = x12.indexOf('ISA');
  const v = x12.slice(at + 90, at + 99);
  return /^\d{9}$/.test(v) ? v : '000000001';
};

export function stediClient(pool: Pool, name: string, baseUrl: string, apiKey: string, format: 'x12' | 'json' = 'x12'): VendorClient {
  const base = new URL(baseUrl);
  const root = base.pathname.replace(/\/+$/, '');
  const path = `${root}${format === 'json' ? STEDI_JSON_PATH : STEDI_RAW_X12_PATH}`;
  return {
    async send(x12: string, target: RouteTarget, signal: AbortSignal): Promise<string> {
      const inquiry = format === 'json' ? parse270(x12) : null;
      if (inquiry && !inquiry.ok) throw new PayerError('protocol', name, 'our own 270 could not be read back');
      const payload = inquiry?.ok ? requestFromInquiry(inquiry.value, target.payer_id, isaControl(x12)) : { x12 };
      const answer = await request(
        pool,
        name,
        { method: 'POST', path, headers: { authorization: apiKey, 'content-type': 'application/json' }, body: JSON.stringify(payload) },
        signal,
      );
      if (answer.status === 429 || answer.status >= 500) throw httpFailure(name, answer);
      const body = jsonBody(answer);
      if (answer.status === 401 || answer.status === 403) throw new RouteRefused(name, `HTTP ${answer.status}: the API key was refused`);
      if (inquiry?.ok) {
        const known = body !== null && typeof body === 'object' && ('payer' in body || 'subscriber' in body);
        if (!known && notConfigured(body))
          throw new RouteRefused(name, `payer not configured at this connection (${stediErrorCodes(body).join(', ') || 'no code'})`, stediPayerErrors(body));
        const out = v3ToX12(body, inquiry.value);
        if (out !== null) return out;
      } else {
        const payloadX12 = (body as { x12?: unknown } | null)?.x12;
        if (typeof payloadX12 === 'string') {
          const kind = detectTransactionSet(payloadX12);
          if (kind === '271' || kind === '999') return payloadX12;
          if (answer.status === 200) throw new PayerError('protocol', name, 'unparseable X12 in the answer');
        }
        if (notConfigured(body))
          throw new RouteRefused(name, `payer not configured at this connection (${stediErrorCodes(body).join(', ') || 'no code'})`, stediPayerErrors(body));
      }
      if (answer.status !== 200)
        throw new PayerError('failure', name, `HTTP ${answer.status}${stediErrorCodes(body).length ? ` (${stediErrorCodes(body).join(', ')})` : ''}`);
      throw new PayerError('protocol', name, body === null ? 'answer is not JSON' : 'answer has no x12');
    },
  };
}

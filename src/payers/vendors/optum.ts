/**
 * Optum (formerly Change Healthcare) Medical Network Eligibility v3 (every Optum fact lives here; the
 * schema we hold its messages to is optum-schema.ts):
 * - OAuth2 client credentials at POST /apip/auth/v2/token, a JSON body {client_id, client_secret,
 *   grant_type: "client_credentials"} as Security and Authorization v2 declares it; a bad or expired
 *   token is 401: fetched anew once, then the call fails.
 * - POST /medicalnetwork/eligibility/v3/ with the JSON model (controlNumber exactly 9 digits) by
 *   default, or /medicalnetwork/eligibility/v3/raw-x12 (`{"x12": ...}`, needs enablement) with
 *   `"format": "x12"`. Payer AAA rejections come back as HTTP 200 with `errors[]`.
 * - Optum refusing OUR request (HTTP 400 with validation errors and no payer answer) is
 *   RequestRefused: the caller's 400 INVALID_REQUEST naming the fields, never PAYER_FAILURE.
 * - controlNumber: the answer's must be the request's (Response.controlNumber is "the interchange
 *   control number of the original request"), except on a test connection (`"test": true`, ISA15 T),
 *   which for Optum means its sandbox: the sandbox takes only its predefined values (so every request
 *   sends OPTUM_SANDBOX_CONTROL_NUMBER) and answers canned bodies whose control number is fixed.
 *   HTTP pairs each answer with its request, so a fixed number there is no crossed answer
 *   (docs/going-live.md, Optum).
 */
import type { Pool } from 'undici';
import { detectTransactionSet, parse270 } from '../../x12/index.ts';
import { PayerError } from '../network.ts';
import { RequestRefused, RouteRefused } from '../production/errors.ts';
import { httpFailure, jsonBody, request, type HttpAnswer } from '../production/transport.ts';
import { hasValidationErrors, refusedFields, requestFromInquiry, v3PayerErrors, v3ToX12 } from './eligibility-v3.ts';
import { systemClock, type Clock } from '../../domain/clock.ts';
import { TokenCache } from './oauth.ts';
import type { RouteTarget, VendorClient } from './types.ts';

export const OPTUM_TOKEN_PATH = '/apip/auth/v2/token';
export const OPTUM_JSON_PATH = '/medicalnetwork/eligibility/v3/';
export const OPTUM_RAW_X12_PATH = '/medicalnetwork/eligibility/v3/raw-x12';
/** One of the control numbers Optum's sandbox accepts (its documented predefined values; the schema's own example). */
export const OPTUM_SANDBOX_CONTROL_NUMBER = '123456789';

export interface OptumSettings {
  baseUrl: string;
  tokenUrl?: string;
  clientId: string;
  clientSecret: string;
  format: 'json' | 'x12';
}

function isa(x12: string): { control: string; test: boolean } {
  const at = x12.indexOf('ISA');
  const control = x12.slice(at + 90, at + 99);
  return { control: /^\d{9}$/.test(control) ? control : '000000001', test: x12[at + 102] === 'T' };
}

export function optumClient(pool: Pool, name: string, s: OptumSettings, clock: Clock = systemClock): VendorClient {
  const base = new URL(s.baseUrl).pathname.replace(/\/+$/, '');
  const tokens = new TokenCache(
    pool,
    name,
    {
      path: s.tokenUrl ? new URL(s.tokenUrl).pathname : `${base}${OPTUM_TOKEN_PATH}`,
      fields: { client_id: s.clientId, client_secret: s.clientSecret, grant_type: 'client_credentials' },
      body: 'json',
    },
    clock,
  );

  const call = async (body: string, signal: AbortSignal): Promise<HttpAnswer> => {
    const path = `${base}${s.format === 'x12' ? OPTUM_RAW_X12_PATH : OPTUM_JSON_PATH}`;
    for (let attempt = 0; ; attempt++) {
      const token = await tokens.get(signal);
      const answer = await request(
        pool,
        name,
        { method: 'POST', path, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body },
        signal,
      );
      if (answer.status !== 401) return answer;
      tokens.drop(token);
      if (attempt >= 1) throw new RouteRefused(name, 'HTTP 401 after a fresh token');
    }
  };

  return {
    async send(x12: string, target: RouteTarget, signal: AbortSignal): Promise<string> {
      const inquiry = s.format === 'json' ? parse270(x12) : null;
      if (inquiry && !inquiry.ok) throw new PayerError('protocol', name, 'our own 270 could not be read back');
      const { control: isa13, test } = isa(x12);
      const control = test ? OPTUM_SANDBOX_CONTROL_NUMBER : isa13;
      const payload = inquiry?.ok ? JSON.stringify(requestFromInquiry(inquiry.value, target.payer_id, control)) : JSON.stringify({ x12 });
      const answer = await call(payload, signal);
      if (answer.status === 429 || answer.status >= 500) throw httpFailure(name, answer);
      const body = jsonBody(answer);
      const echoed = (body as { controlNumber?: unknown } | null)?.controlNumber;
      if (inquiry?.ok && !test && typeof echoed === 'string' && echoed !== control)
        throw new PayerError('protocol', name, 'controlNumber mismatch: the answer belongs to another request');
      const out = inquiry?.ok
        ? v3ToX12(body, inquiry.value)
        : typeof (body as { x12?: unknown } | null)?.x12 === 'string'
          ? (body as { x12: string }).x12
          : null;
      if (out !== null) {
        const kind = detectTransactionSet(out);
        if (kind === '271' || kind === '999') return out;
      }
      if (answer.status === 403) throw new RouteRefused(name, 'HTTP 403: this client may not use this endpoint');
      if (answer.status === 400 || answer.status === 422 || (answer.status === 200 && hasValidationErrors(body))) {
        const fields = refusedFields(body);
        throw new RequestRefused(name, `HTTP ${answer.status}: Optum refused the request as invalid${fields.length ? ` (${fields.join(', ')})` : ''}`, fields);
      }
      if (answer.status === 404) throw new RouteRefused(name, 'HTTP 404: no such endpoint at this connection', v3PayerErrors(body));
      throw new PayerError('protocol', name, body === null ? 'answer is not JSON' : 'answer has neither a 271 nor payer data');
    },
  };
}

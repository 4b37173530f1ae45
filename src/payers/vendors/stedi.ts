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
import { RequestRefused, RouteRefused } from '../production/errors.ts';
import { httpFailure, jsonBody, request } from '../production/transport.ts';
import { requestFromInquiry } from './eligibility-v3.ts';
import { str } from './json-read.ts';
import { codeFor, FOLLOWUP_ACTION_CODES } from './stedi-codes.ts';
import { stediToX12 } from './stedi-read.ts';
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
    const followup = typeof e?.followupAction === 'string' ? codeFor(FOLLOWUP_ACTION_CODES, e.followupAction) : null;
    return payerError(typeof e?.code === 'string' ? e.code : '', followup, loop);
  });
}

/** Stedi's JSON request paths (ValidationException `fieldList[].path`) by our API's field names. */
const OUR_FIELDS: Readonly<Record<string, string>> = {
  'subscriber.memberId': 'member_id',
  'subscriber.firstName': 'member_first_name',
  'subscriber.lastName': 'member_last_name',
  'subscriber.dateOfBirth': 'member_dob',
  'provider.npi': 'provider_npi',
  'provider.firstName': 'provider_first_name',
  'provider.lastName': 'provider_last_name',
  'provider.organizationName': 'provider_last_name',
};

/** Our fields a Stedi validation answer names (its `fieldList` paths, `/subscriber/firstName` or `subscriber.firstName`). */
function refusedFields(body: unknown): string[] {
  const list = (body as { fieldList?: unknown } | null)?.fieldList;
  if (!Array.isArray(list)) return [];
  const paths = list.map((f) =>
    str((f as { path?: unknown } | null)?.path)
      .replace(/^\//, '')
      .replace(/\//g, '.'),
  );
  return [...new Set(paths.map((p) => OUR_FIELDS[p.replace(/^dependents\.\d+\./, 'subscriber.')]).filter((f): f is string => f !== undefined))];
}

/**
 * A 400 that is Stedi refusing OUR request, not a payer's answer: no payer 271 and no payer data
 * (Stedi's published raw-X12 example: "Parse errors", `status` ERROR, no `x12`), or its
 * ValidationException `{message, fieldList}`. A payer that could not be reached (AAA 42 or 80 without
 * a 271) is the payer's side, not ours.
 */
function refusesOurRequest(status: number, body: unknown): boolean {
  if (status !== 400 && status !== 422) return false;
  const b = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  if ('payer' in b || 'subscriber' in b || typeof b.x12 === 'string') return false;
  return !stediErrorCodes(body).some((c) => c === '42' || c === '80');
}

const isaControl = (x12: string) => {
  const at = x12.indexOf('ISA');
  const v = x12.slice(at + 90, at + 99);
  return /^\d{9}$/.test(v) ? v : '000000001';
};

export interface StediOptions {
  baseUrl: string;
  apiKey: string;
  /** Raw X12 (default) or the JSON endpoint. */
  format?: 'x12' | 'json';
  /**
   * Stedi's X-Forwarded-For, which CMS (HETS) requires since 2025-11-08 (docs/going-live.md, "Stedi"):
   * sent on checks to these route payer IDs, holding the caller's address chain (origin first)
   * followed by `proxies`.
   */
  forwardedFor?: { payer_ids: readonly string[]; proxies?: readonly string[] };
}

const IP = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f:.]{2,45})$/;

/** The X-Forwarded-For value for this target, or null when none is due. */
export function forwardedFor(options: StediOptions['forwardedFor'], target: RouteTarget): string | null {
  if (!options || !options.payer_ids.some((id) => id.toUpperCase() === target.payer_id.toUpperCase())) return null;
  const chain = [...(target.client_ips ?? []), ...(options.proxies ?? [])].map((ip) => ip.trim()).filter((ip) => IP.test(ip));
  return chain.length > 0 ? [...new Set(chain)].join(', ') : null;
}

export function stediClient(pool: Pool, name: string, options: StediOptions): VendorClient {
  const { apiKey, format = 'x12' } = options;
  const base = new URL(options.baseUrl);
  const root = base.pathname.replace(/\/+$/, '');
  const path = `${root}${format === 'json' ? STEDI_JSON_PATH : STEDI_RAW_X12_PATH}`;
  return {
    async send(x12: string, target: RouteTarget, signal: AbortSignal): Promise<string> {
      const inquiry = format === 'json' ? parse270(x12) : null;
      if (inquiry && !inquiry.ok) throw new PayerError('protocol', name, 'our own 270 could not be read back');
      const payload = inquiry?.ok ? requestFromInquiry(inquiry.value, target.payer_id, isaControl(x12)) : { x12 };
      const xff = forwardedFor(options.forwardedFor, target);
      const answer = await request(
        pool,
        name,
        {
          method: 'POST',
          path,
          headers: { authorization: apiKey, 'content-type': 'application/json', ...(xff ? { 'x-forwarded-for': xff } : {}) },
          body: JSON.stringify(payload),
        },
        signal,
      );
      if (answer.status === 429 || answer.status >= 500) throw httpFailure(name, answer);
      const body = jsonBody(answer);
      if (answer.status === 401 || answer.status === 403) throw new RouteRefused(name, `HTTP ${answer.status}: the API key was refused`);
      const codes = () => (stediErrorCodes(body).length ? ` (${stediErrorCodes(body).join(', ')})` : '');
      if (inquiry?.ok) {
        const known = body !== null && typeof body === 'object' && ('payer' in body || 'subscriber' in body);
        if (!known && notConfigured(body))
          throw new RouteRefused(name, `payer not configured at this connection (${stediErrorCodes(body).join(', ') || 'no code'})`, stediPayerErrors(body));
        if (!known && refusesOurRequest(answer.status, body))
          throw new RequestRefused(name, `Stedi refused our JSON request (HTTP ${answer.status}${codes()})`, refusedFields(body));
        // A 999 in `x12` is the payer's refusal of the 270 Stedi sent for us: read as in raw mode.
        const ack = (body as { x12?: unknown } | null)?.x12;
        if (!known && typeof ack === 'string' && detectTransactionSet(ack) === '999') return ack;
        const out = stediToX12(body, inquiry.value);
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
        // Stedi could not take our 270 (its published example: "Parse errors", status ERROR, no 271).
        if (refusesOurRequest(answer.status, body))
          throw new RequestRefused(name, `Stedi refused our 270 (HTTP ${answer.status}${codes()})`, refusedFields(body));
      }
      if (answer.status !== 200) throw new PayerError('failure', name, `HTTP ${answer.status}${codes()}`);
      throw new PayerError('protocol', name, body === null ? 'answer is not JSON' : 'answer has no x12');
    },
  };
}

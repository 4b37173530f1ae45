/**
 * Availity Coverages 1.0.0 (its published schema: availity-schema.ts): OAuth2 client credentials at
 * POST /v1/token (form: grant_type, client_id, client_secret, scope; tokens last about 5 minutes);
 * POST /v1/coverages form-urlencoded (payerId, providerNpi, provider and patient names, memberId,
 * patientBirthDate, serviceType, procedureCode, placeOfService, asOfDate, subscriberRelationship)
 * answers a summary without benefits: 202 while the payer works, 200 when done. The whole coverage is
 * then read with GET /v1/coverages/{id} (or the Location), after 1, 2, 5 and 20 units of
 * poll_initial_ms while it answers 202, within the deadline. 503 when the payer is down. The answer
 * (availity-271.ts) is written back as a 271 for our one reader.
 * A 400 naming only payerId is the route's (this payer is not on this connection); any other 400
 * refuses OUR request: the caller hears which of its fields this route needs (RequestRefused).
 */
import type { Pool } from 'undici';
import type { Inquiry } from '../../domain/inquiry.ts';
import { detectTransactionSet, parse270 } from '../../x12/index.ts';
import { PayerError } from '../network.ts';
import { RequestRefused, RouteRefused } from '../production/errors.ts';
import { httpFailure, jsonBody, request, type HttpAnswer } from '../production/transport.ts';
import { availityToX12 } from './availity-271.ts';
import { arr, obj, str } from './json-read.ts';
import { systemClock, type Clock } from '../../domain/clock.ts';
import { TokenCache } from './oauth.ts';
import type { RouteTarget, VendorClient } from './types.ts';

export const AVAILITY_TOKEN_PATH = '/v1/token';
export const AVAILITY_COVERAGES_PATH = '/v1/coverages';
/** Availity's SDK polls after 1, 2, 5 and 20 seconds. */
export const AVAILITY_POLL_STEPS = [1, 2, 5, 20];

export interface AvailitySettings {
  baseUrl: string;
  tokenUrl?: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  pollInitialMs: number;
}

/** Availity's form fields by the request fields of ours they come from (docs/payer-directory.md). */
const OUR_FIELD: Readonly<Record<string, string>> = {
  memberId: 'member_id',
  patientFirstName: 'member_first_name',
  patientLastName: 'member_last_name',
  patientBirthDate: 'member_dob',
  patientZipCode: 'zip',
  providerNpi: 'provider_npi',
  providerFirstName: 'provider_first_name',
  providerLastName: 'provider_last_name',
};

/**
 * A 400: the fields Availity named, by our names, for RequestRefused; null when it named only payerId
 * (the payer is not on this connection: the route's failure). Availity's field names are its schema's,
 * never member data; its messages are not read.
 */
export function refusedFields(body: unknown): { fields: string[]; named: string[] } | null {
  const named = [...new Set(arr(obj(body).errors).map((e) => str(e.field).replace(/\[\d+\]$/, '')))].filter((f) => /^[A-Za-z]{1,40}$/.test(f));
  if (named.length > 0 && named.every((f) => f === 'payerId')) return null;
  const fields = [...new Set(named.map((f) => OUR_FIELD[f]).filter((f): f is string => f !== undefined))];
  return { fields, named };
}

/**
 * A completed answer with no plan and validation messages but no X12 reject reason among them: the
 * payer (or Availity) refused what we sent, field by field. Read as a refused request (or, naming
 * only payerId, a refused route), never as a member without coverage.
 */
export function refusedInAnswer(connection: string, body: unknown): void {
  const b = obj(body);
  const messages = arr(b.validationMessages);
  if (arr(b.plans).length > 0 || messages.length === 0 || messages.some((m) => /^[0-9A-Z]{2}$/.test(str(m.code)))) return;
  const refused = refusedFields({ errors: messages });
  if (!refused) throw new RouteRefused(connection, 'completed answer refusing payerId: this payer is not available on this connection');
  throw new RequestRefused(
    connection,
    `completed answer with validation messages only${refused.named.length ? ` (${refused.named.join(', ')})` : ''}`,
    refused.fields,
  );
}

export function coverageForm(inquiry: Inquiry, payerId: string): Record<string, string> {
  const who = inquiry.dependent ?? inquiry.subscriber;
  const p = inquiry.provider;
  const fields: Record<string, string | null | undefined> = {
    payerId,
    providerNpi: p.npi,
    providerLastName: p.last_name ?? p.organization_name,
    providerFirstName: p.first_name,
    memberId: inquiry.subscriber.member_id,
    patientFirstName: who.first_name,
    patientLastName: who.last_name,
    patientBirthDate: who.dob,
    serviceType: inquiry.service_types[0] ?? '30',
    procedureCode: inquiry.procedure_code,
    placeOfService: inquiry.place_of_service,
    asOfDate: inquiry.date,
    subscriberRelationship: inquiry.dependent ? '19' : '18',
  };
  return Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
}

export function availityClient(pool: Pool, name_: string, s: AvailitySettings, clock: Clock = systemClock): VendorClient {
  const base = new URL(s.baseUrl).pathname.replace(/\/+$/, '');
  const tokens = new TokenCache(
    pool,
    name_,
    {
      path: s.tokenUrl ? new URL(s.tokenUrl).pathname : `${base}${AVAILITY_TOKEN_PATH}`,
      fields: { grant_type: 'client_credentials', client_id: s.clientId, client_secret: s.clientSecret, scope: s.scope },
    },
    clock,
  );
  const authorized = async (call: (token: string) => Promise<HttpAnswer>, signal: AbortSignal) => {
    for (let attempt = 0; ; attempt++) {
      const token = await tokens.get(signal);
      const answer = await call(token);
      if (answer.status !== 401) return answer;
      tokens.drop(token);
      if (attempt >= 1) throw new RouteRefused(name_, 'HTTP 401 after a fresh token');
    }
  };
  return {
    async send(x12: string, target: RouteTarget, signal: AbortSignal): Promise<string> {
      const parsed = parse270(x12);
      if (!parsed.ok) throw new PayerError('protocol', name_, 'our own 270 could not be read back');
      const form = new URLSearchParams(coverageForm(parsed.value, target.payer_id)).toString();
      let answer = await authorized(
        (token) =>
          request(
            pool,
            name_,
            {
              method: 'POST',
              path: `${base}${AVAILITY_COVERAGES_PATH}`,
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
              body: form,
            },
            signal,
          ),
        signal,
      );
      // POST answers a summary (200 done, 202 still working): the whole coverage is read by id,
      // unless a 200 already holds it (plans with benefits), as a canned demo answer may.
      const whole = (a: HttpAnswer) => arr(obj(jsonBody(a)).plans).some((p) => Array.isArray(p.benefits));
      let polled = answer.status === 200 && whole(answer);
      for (let step = 0; answer.status === 202 || (answer.status === 200 && !polled); step++) {
        const id = obj(jsonBody(answer)).id;
        const location = answer.location
          ? new URL(answer.location, s.baseUrl).pathname
          : typeof id === 'string' && /^[A-Za-z0-9_-]{1,100}$/.test(id)
            ? `${base}${AVAILITY_COVERAGES_PATH}/${id}`
            : null;
        if (!location) throw new PayerError('protocol', name_, `${answer.status} without a Location or an id`);
        // Past the last step, keep the last interval: the deadline ends the wait.
        if (answer.status === 202) await clock.sleep(s.pollInitialMs * AVAILITY_POLL_STEPS[Math.min(step, AVAILITY_POLL_STEPS.length - 1)]!, signal);
        polled = true;
        answer = await authorized(
          (token) => request(pool, name_, { method: 'GET', path: location, headers: { authorization: `Bearer ${token}` } }, signal),
          signal,
        );
      }
      if (answer.status === 429 || answer.status >= 500) throw httpFailure(name_, answer);
      const body = jsonBody(answer);
      if (answer.status === 200) {
        refusedInAnswer(name_, body);
        // Neither a plan nor a message says nothing about the member: not "no coverage".
        if (arr(obj(body).plans).length === 0 && arr(obj(body).validationMessages).length === 0)
          throw new PayerError('protocol', name_, 'completed answer with neither plans nor validation messages');
        const out = availityToX12(body, parsed.value);
        if (out !== null && detectTransactionSet(out) === '271') return out;
        throw new PayerError('protocol', name_, 'answer is not a completed coverage');
      }
      const reason = /^[A-Za-z0-9_]{1,10}$/.test(str(obj(body).reasonCode)) ? str(obj(body).reasonCode) : '';
      if (answer.status === 400) {
        const refused = refusedFields(body);
        if (refused)
          throw new RequestRefused(
            name_,
            `HTTP 400${reason ? ` (${reason})` : ''}: request refused${refused.named.length ? ` (${refused.named.join(', ')})` : ''}`,
            refused.fields,
          );
      }
      if (answer.status === 400 || answer.status === 403 || answer.status === 404)
        throw new RouteRefused(name_, `HTTP ${answer.status}${reason ? ` (${reason})` : ''}: this payer is not available on this connection`);
      throw new PayerError('failure', name_, `HTTP ${answer.status}${reason ? ` (${reason})` : ''}`);
    },
  };
}

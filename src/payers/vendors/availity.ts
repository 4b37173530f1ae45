/**
 * Availity Coverages (every Availity fact lives here): OAuth2 client credentials at POST /v1/token
 * (form: grant_type, client_id, client_secret, scope; tokens last about 5 minutes); POST /v1/coverages
 * form-urlencoded (payerId, providerNpi, provider and patient names, memberId, patientBirthDate,
 * serviceType, asOfDate); 200 when complete, or 202 while the payer works: then GET the Location (or
 * /v1/coverages/{id}) after 1, 2, 5 and 20 units of poll_initial_ms, within the deadline. 503 when the
 * payer is down. The answer is Availity's own JSON (plans[] with status, dates, group, benefits),
 * written back as a 271 for our one reader; Availity's benefit items are read with the v3 EB fields
 * (code, coverageLevelCode, serviceTypeCodes, benefitAmount, benefitPercent...), which is how the
 * simulator serves them: check a demo-scope answer against this file before going live.
 */
import type { Pool } from 'undici';
import type { Inquiry } from '../../domain/inquiry.ts';
import { detectTransactionSet, parse270 } from '../../x12/index.ts';
import { cleanText } from '../../x12/sanitize.ts';
import { isoToD8 } from '../../x12/values.ts';
import { SegmentList, wrapInterchange } from '../../x12/writer.ts';
import { PayerError } from '../network.ts';
import { RouteRefused } from '../production/errors.ts';
import { httpFailure, jsonBody, request, type HttpAnswer } from '../production/transport.ts';
import { aaa, benefits, member, name } from './eligibility-v3.ts';
import { arr, obj, str, type Obj } from './json-read.ts';
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

type Json = Obj;

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

const PLAN_DATES: Record<string, string> = { coverageStartDate: 'planBegin', coverageEndDate: 'planEnd', eligibilityEndDate: 'eligibilityEnd' };

/** Availity's answer written as the 271 to our inquiry; null when it is no completed coverage. */
export function availityToX12(body: unknown, inquiry: Inquiry): string | null {
  const b = obj(body);
  if (str(b.statusCode) !== '4' && !/complete/i.test(str(b.status))) return null;
  const plan = arr(b.plans)[0] ?? {};
  const list = new SegmentList();
  const d = list.d;
  const trace = cleanText(inquiry.trace_number, d, 50) || '1';
  list.add('BHT', '0022', '11', trace, isoToD8(inquiry.date), '1200');
  list.add('HL', '1', '', '20', '1');
  const payer = obj(b.payer);
  name(list, 'PR', { organizationName: payer.name }, 'PI', str(payer.payerId));
  list.add('HL', '2', '1', '21', '1');
  name(list, '1P', { organizationName: inquiry.provider.organization_name ?? inquiry.provider.last_name ?? '' }, 'XX', inquiry.provider.npi ?? '');
  const messages = arr(b.validationMessages).filter((m) => /^[0-9A-Z]{2,3}$/.test(str(m.code)));
  const subscriber = obj(b.subscriber);
  const patient = obj(b.patient);
  const dependent = inquiry.dependent !== null;
  const dates = Object.fromEntries(
    Object.entries(PLAN_DATES)
      .filter(([k]) => typeof plan[k] === 'string')
      .map(([k, v]) => [v, str(plan[k]).replace(/-/g, '')]),
  );
  const asMember = (who: Json): Json => {
    const address = who.address === undefined ? null : obj(who.address);
    return {
      memberId: who.memberId,
      firstName: who.firstName,
      lastName: who.lastName,
      dateOfBirth: str(who.birthDate).replace(/-/g, ''),
      gender: who.genderCode,
      address: address
        ? { address1: address.line1, address2: address.line2, city: address.city, state: address.stateCode, postalCode: address.zipCode }
        : undefined,
      planDateInformation: dates,
    };
  };
  list.add('HL', '3', '2', '22', dependent ? '1' : '0');
  if (!dependent) list.add('TRN', '2', trace, '9COVERAGE');
  member(list, asMember(dependent ? subscriber : { ...patient, ...subscriber }), 'IL');
  if (typeof plan.groupNumber === 'string') list.add('REF', '6P', cleanText(plan.groupNumber, d, 50), cleanText(str(plan.groupName), d, 80));
  if (dependent) {
    list.add('HL', '4', '3', '23', '0');
    list.add('TRN', '2', trace, '9COVERAGE');
    member(list, asMember(patient), '03');
  }
  aaa(
    list,
    messages.map((m) => ({ code: m.code, followupAction: str(m.followupActionCode) })),
  );
  benefits(list, plan.benefits);
  return wrapInterchange({
    functional_id: 'HB',
    set_id: '271',
    version: '005010X279A1',
    body: list,
    sender: 'AVAILITY',
    receiver: 'COVERAGE',
    env: { usage: 'P' },
  });
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const stop = () => reject(new Error('aborted'));
    if (signal.aborted) return stop();
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), stop()), { once: true });
  });

export function availityClient(pool: Pool, name_: string, s: AvailitySettings): VendorClient {
  const base = new URL(s.baseUrl).pathname.replace(/\/+$/, '');
  const tokens = new TokenCache(pool, name_, {
    path: s.tokenUrl ? new URL(s.tokenUrl).pathname : `${base}${AVAILITY_TOKEN_PATH}`,
    fields: { grant_type: 'client_credentials', client_id: s.clientId, client_secret: s.clientSecret, scope: s.scope },
  });
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
      for (let step = 0; answer.status === 202; step++) {
        const id = obj(jsonBody(answer)).id;
        const location = answer.location
          ? new URL(answer.location, s.baseUrl).pathname
          : typeof id === 'string'
            ? `${base}${AVAILITY_COVERAGES_PATH}/${encodeURIComponent(id)}`
            : null;
        if (!location) throw new PayerError('protocol', name_, '202 without a Location or an id');
        // Past the last step, keep the last interval: the deadline ends the wait.
        await sleep(s.pollInitialMs * AVAILITY_POLL_STEPS[Math.min(step, AVAILITY_POLL_STEPS.length - 1)]!, signal);
        answer = await authorized(
          (token) => request(pool, name_, { method: 'GET', path: location, headers: { authorization: `Bearer ${token}` } }, signal),
          signal,
        );
      }
      if (answer.status === 429 || answer.status >= 500) throw httpFailure(name_, answer);
      const body = jsonBody(answer);
      if (answer.status === 200) {
        const out = availityToX12(body, parsed.value);
        if (out !== null && detectTransactionSet(out) === '271') return out;
        throw new PayerError('protocol', name_, 'answer is not a completed coverage');
      }
      const reason = /^[A-Za-z0-9_]{1,10}$/.test(str(obj(body).reasonCode)) ? str(obj(body).reasonCode) : '';
      if (answer.status === 403 || answer.status === 404)
        throw new RouteRefused(name_, `HTTP ${answer.status}${reason ? ` (${reason})` : ''}: this payer is not available on this connection`);
      throw new PayerError('failure', name_, `HTTP ${answer.status}${reason ? ` (${reason})` : ''}`);
    },
  };
}

/**
 * Optum's eligibility v3 API as documented (every Optum habit the simulator copies lives here):
 * POST /apip/auth/v2/token takes Security v2's JSON {client_id, client_secret, grant_type} and
 * answers a bearer token with expires_in (a body that is not that: 400 invalid_request); a missing
 * token is 400, a bad or expired one 401. POST /medicalnetwork/eligibility/v3/ takes the JSON model,
 * held to Optum's schema (optum-schema.ts: a request that breaks it is 400 with `errors[].field`
 * naming each field, as the sandbox answers), and answers in Optum's shape (optum-json.ts), payer AAA
 * rejections included, with HTTP 200 and `errors[]`; /raw-x12 takes `{"x12": ...}`. Unknown payer:
 * 400 with AAA 79. `fixedControlNumber` answers every request with that control number, as Optum's
 * sandbox answers canned bodies.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Inquiry } from '../../../domain/inquiry.ts';
import { d8ToIso } from '../../../x12/values.ts';
import { OPTUM_JSON_PATH, OPTUM_RAW_X12_PATH, OPTUM_TOKEN_PATH } from '../../vendors/optum.ts';
import { OptumAuthRequest, OptumEligibilityRequest, OptumRawX12Request, schemaFieldErrors, schemaProblems } from '../../vendors/optum-schema.ts';
import { arr, obj, str, strOrNull, strings, type Obj } from '../../vendors/json-read.ts';
import { x12ToV3 } from './eligibility-v3-json.ts';
import { optumAnswer } from './optum-json.ts';
import { SIM_SECRET, VendorSimBase, parse270, readBody, sendJson, type SimAnswer, type VendorSimOptions } from './common.ts';
import { dayOf } from '../../../domain/clock.ts';

export const OPTUM_CLIENT_ID_ENV = 'COVERAGE_SIM_OPTUM_CLIENT_ID';
export const OPTUM_CLIENT_SECRET_ENV = 'COVERAGE_SIM_OPTUM_CLIENT_SECRET';

function person(p: Obj) {
  return {
    member_id: strOrNull(p.memberId),
    first_name: strOrNull(p.firstName),
    last_name: strOrNull(p.lastName),
    dob: d8ToIso(str(p.dateOfBirth)),
    zip: null,
  };
}

export function inquiryFromV3(body: Obj, now: number): Inquiry | null {
  const payerId = strOrNull(body.tradingPartnerServiceId);
  if (!payerId || body.subscriber === undefined) return null;
  const provider = obj(body.provider);
  const encounter = obj(body.encounter);
  const dependent = arr(body.dependents)[0];
  const types = strings(encounter.serviceTypeCodes);
  return {
    trace_number: str(body.controlNumber),
    payer: { id: payerId, name: null },
    provider: {
      npi: strOrNull(provider.npi),
      first_name: strOrNull(provider.firstName),
      last_name: strOrNull(provider.lastName),
      organization_name: strOrNull(provider.organizationName),
      taxonomy: strOrNull(provider.referenceIdentification),
    },
    subscriber: person(obj(body.subscriber)),
    dependent: dependent ? person(dependent) : null,
    service_types: types.length > 0 ? types : ['30'],
    date: d8ToIso(str(encounter.dateOfService)) ?? dayOf(now),
  };
}

export interface OptumSimOptions extends VendorSimOptions {
  /** Leave the raw 271 out of JSON answers, so a client must read the JSON itself. */
  omitX12?: boolean;
  /** Answer every request with this controlNumber (a sandbox's canned answers), not the request's. */
  fixedControlNumber?: string;
  /** Sees every eligibility answer (status and JSON body) before it is sent: the tests hold them to Optum's schema. */
  onAnswer?: (status: number, body: unknown) => void;
}

export class OptumSimulator extends VendorSimBase {
  private readonly tokens = new Map<string, number>();
  /** Every request (token and eligibility) that broke Optum's schema: "/path: message", for the tests. */
  readonly schemaProblems: string[] = [];

  static async start(options: OptumSimOptions = {}): Promise<OptumSimulator> {
    const sim = new OptumSimulator(options);
    await sim.listen((req, res, url) => sim.handle(req, res, url));
    return sim;
  }

  get baseUrl(): string {
    return this.url;
  }

  /** Every token issued so far stops working (as if its hour had passed). */
  expireTokens(): void {
    for (const k of this.tokens.keys()) this.tokens.set(k, 0);
  }

  private async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (req.method === 'POST' && url.pathname === OPTUM_TOKEN_PATH) return this.token(req, res);
    const raw = url.pathname === OPTUM_RAW_X12_PATH;
    if (req.method !== 'POST' || !(raw || url.pathname === OPTUM_JSON_PATH || `${url.pathname}/` === OPTUM_JSON_PATH))
      return sendJson(res, 404, { message: 'Not Found' });
    this.stats.requests++;
    const auth = String(req.headers.authorization ?? '');
    if (!/^Bearer\s+\S+/i.test(auth)) return this.reply(res, 400, { errors: [{ code: 'MISSING_TOKEN', description: 'Missing access token' }] });
    const expires = this.tokens.get(auth.replace(/^Bearer\s+/i, ''));
    if (expires === undefined || expires <= this.clock.now())
      return this.reply(res, 401, { errors: [{ code: 'INVALID_TOKEN', description: 'Invalid or expired access token' }] });
    const done = await this.inFlightSlot(async () => {
      const text = await readBody(req);
      let body: Obj = {};
      try {
        body = obj(JSON.parse(text ?? ''));
      } catch {
        return this.reply(res, 400, { errors: [{ field: 'body', description: 'The body is not JSON' }] });
      }
      const problems = schemaFieldErrors(raw ? OptumRawX12Request : OptumEligibilityRequest, body);
      if (problems.length > 0) {
        this.schemaProblems.push(...problems.map((p) => `${p.field}: ${p.message}`));
        return this.reply(res, 400, { errors: problems.map((p) => ({ field: p.field, description: `Invalid value: ${p.field} ${p.message}` })) });
      }
      let inquiry: Inquiry | null = null;
      if (raw) {
        const sent = str(body.x12);
        const parsed = sent ? parse270(sent) : null;
        inquiry = parsed?.ok ? parsed.value : null;
        if (inquiry) this.remember(sent, inquiry.payer.id, inquiry);
      } else {
        inquiry = inquiryFromV3(body, this.clock.now());
        if (inquiry)
          this.received.push({ payer_id: inquiry.payer.id, isa_sender_id: '', isa_receiver_id: '', usage: '', control_number: str(body.controlNumber) });
      }
      if (!inquiry) return this.reply(res, 400, { errors: [{ field: raw ? 'x12' : 'tradingPartnerServiceId', description: 'Invalid or missing value' }] });
      await this.respond(req, res, inquiry, raw);
    });
    if (done === false) this.reply(res, 429, { errors: [{ code: 'TOO_MANY_REQUESTS', description: 'Too many requests' }] });
  }

  private reply(res: ServerResponse, status: number, body: unknown): void {
    (this.options as OptumSimOptions).onAnswer?.(status, body);
    sendJson(res, status, body);
  }

  private async token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.stats.token_requests++;
    const text = (await readBody(req)) ?? '';
    let fields: Partial<Record<string, string>> = {};
    try {
      const json: unknown = /^application\/json/i.test(String(req.headers['content-type'])) ? JSON.parse(text) : null;
      const problems = schemaProblems(OptumAuthRequest, json);
      if (problems.length > 0) {
        this.schemaProblems.push(...problems);
        return sendJson(res, 400, { error: 'invalid_request', error_description: 'Request was not properly formed' });
      }
      fields = Object.fromEntries(Object.entries(obj(json)).map(([k, v]) => [k, str(v)]));
    } catch {
      return sendJson(res, 400, { error: 'invalid_request', error_description: 'Request was not properly formed' });
    }
    if (fields.client_id !== SIM_SECRET || fields.client_secret !== SIM_SECRET) {
      return sendJson(res, 401, { error: 'invalid_client' });
    }
    const ttl = this.options.tokenTtlSeconds ?? 3600;
    const token = randomBytes(18).toString('base64url');
    this.tokens.set(token, this.clock.now() + ttl * 1000);
    sendJson(res, 200, { access_token: token, token_type: 'bearer', expires_in: ttl });
  }

  private async respond(req: IncomingMessage, res: ServerResponse, inquiry: Inquiry, raw: boolean): Promise<void> {
    const payerId = inquiry.payer.id;
    const rule = await this.fault(payerId, inquiry);
    if (rule?.fault === 'timeout') return new Promise<void>((resolve) => res.on('close', resolve));
    if (rule?.fault === 'http_500' || rule?.fault === 'soap_fault')
      return this.reply(res, 500, { errors: [{ code: 'INTERNAL', description: 'Internal Server Error' }] });
    if (rule?.fault === 'connection_reset') return void req.socket.resetAndDestroy();
    const known = this.catalogAnswer(payerId, inquiry);
    if (known === null)
      return this.reply(res, 400, {
        errors: [{ code: '79', description: 'Invalid Participant Identification', followupAction: 'Please Correct and Resubmit', location: 'Loop 2100A' }],
      });
    if ('http' in known) return this.reply(res, known.http, { errors: [{ code: String(known.http), description: 'Payer unavailable' }] });
    const answer: SimAnswer = rule?.fault === 'aaa_42' ? this.busy(inquiry) : known;
    // Payer rejections too: HTTP 200, the AAA in errors[].
    const options = this.options as OptumSimOptions;
    this.reply(res, 200, optumAnswer(x12ToV3(answer.x12, raw || !options.omitX12), options.fixedControlNumber ?? inquiry.trace_number, payerId));
  }
}

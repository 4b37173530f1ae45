/**
 * Availity's Coverages API as documented (every Availity habit the simulator copies lives here):
 * POST /v1/token (form client credentials + scope; tokens last 5 minutes); POST /v1/coverages
 * (form-urlencoded) answers 202 with a Location while "the payer works", then GET /v1/coverages/{id}
 * answers 202 for the first `pendingPolls` polls and 200 with Availity's JSON after; 503 when the
 * payer is down; validation errors as {userMessage, reasonCode, errors[]}.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Inquiry } from '../../../domain/inquiry.ts';
import { AVAILITY_COVERAGES_PATH, AVAILITY_TOKEN_PATH } from '../../vendors/availity.ts';
import { obj, type Obj } from '../../vendors/json-read.ts';
import { x12ToV3 } from './eligibility-v3-json.ts';
import { SIM_SECRET, VendorSimBase, readBody, sendJson, type VendorSimOptions } from './common.ts';

export const AVAILITY_CLIENT_ID_ENV = 'COVERAGE_SIM_AVAILITY_CLIENT_ID';
export const AVAILITY_CLIENT_SECRET_ENV = 'COVERAGE_SIM_AVAILITY_CLIENT_SECRET';
export const AVAILITY_DEMO_SCOPE = 'healthcare-hipaa-transactions-demo';

export interface AvailitySimOptions extends VendorSimOptions {
  /** Polls answered 202 before the coverage is complete (default 1). */
  pendingPolls?: number;
}

const iso = (d8: unknown) => (typeof d8 === 'string' && /^\d{8}$/.test(d8) ? `${d8.slice(0, 4)}-${d8.slice(4, 6)}-${d8.slice(6)}` : undefined);

/** A 271 as Availity's coverage JSON: payer, subscriber, patient, plans[0] with dates, group and benefits. */
export function availityBody(id: string, x12: string): Obj {
  const v3 = x12ToV3(x12, false);
  const sub = v3.subscriber;
  const pat = v3.dependents?.[0] ?? sub;
  const dates = obj(pat.planDateInformation ?? sub.planDateInformation);
  const person = (p: Obj) => {
    const a = p.address === undefined ? null : obj(p.address);
    return {
      memberId: p.memberId,
      firstName: p.firstName,
      lastName: p.lastName,
      birthDate: iso(p.dateOfBirth),
      genderCode: p.gender,
      ...(a ? { address: { line1: a.address1, line2: a.address2, city: a.city, stateCode: a.state, zipCode: a.postalCode } } : {}),
    };
  };
  const active = v3.benefitsInformation.some((b) => b.code === '1');
  const group = obj(v3.planInformation);
  return {
    id,
    status: 'Complete',
    statusCode: '4',
    payer: { payerId: v3.payer.payorIdentification, name: v3.payer.name },
    subscriber: person(sub),
    patient: person(pat),
    plans:
      v3.errors.length > 0 && v3.benefitsInformation.length === 0
        ? []
        : [
            {
              status: active ? 'Active Coverage' : 'Inactive',
              statusCode: active ? '1' : '6',
              ...(group.groupNumber ? { groupNumber: group.groupNumber, groupName: group.groupDescription } : {}),
              ...(iso(dates.planBegin) ? { coverageStartDate: iso(dates.planBegin) } : {}),
              ...(iso(dates.planEnd) ? { coverageEndDate: iso(dates.planEnd) } : {}),
              ...(iso(dates.eligibilityEnd) ? { eligibilityEndDate: iso(dates.eligibilityEnd) } : {}),
              benefits: v3.benefitsInformation,
            },
          ],
    validationMessages: v3.errors.map((e) => ({ code: e.code, followupActionCode: e.followupActionCode, errorMessage: 'Payer rejection' })),
  };
}

export class AvailitySimulator extends VendorSimBase {
  private readonly tokens = new Map<string, number>();
  private readonly coverages = new Map<string, { polls: number; status: number; body: Obj }>();

  static async start(options: AvailitySimOptions = {}): Promise<AvailitySimulator> {
    const sim = new AvailitySimulator({ tokenTtlSeconds: 300, ...options });
    await sim.listen((req, res, url) => sim.handle(req, res, url));
    return sim;
  }

  get baseUrl(): string {
    return this.url;
  }

  /** Polls made so far (GET /v1/coverages/{id}). */
  polls = 0;

  private async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (req.method === 'POST' && url.pathname === AVAILITY_TOKEN_PATH) return this.token(req, res);
    const poll = new RegExp(`^${AVAILITY_COVERAGES_PATH}/([A-Za-z0-9-]+)$`).exec(url.pathname);
    if (!(req.method === 'POST' && url.pathname === AVAILITY_COVERAGES_PATH) && !(req.method === 'GET' && poll))
      return sendJson(res, 404, { userMessage: 'Not Found', statusCode: 404 });
    const expires = this.tokens.get(String(req.headers.authorization ?? '').replace(/^Bearer\s+/i, ''));
    if (expires === undefined || expires <= Date.now()) return sendJson(res, 401, { userMessage: 'Unauthorized', statusCode: 401 });
    if (poll) {
      this.polls++;
      const c = this.coverages.get(poll[1]!);
      if (!c) return sendJson(res, 404, { userMessage: 'Coverage not found', statusCode: 404 });
      if (c.polls-- > 0) return sendJson(res, 202, { id: poll[1], status: 'In Progress', statusCode: '0' });
      return sendJson(res, c.status, c.body);
    }
    this.stats.requests++;
    const done = await this.inFlightSlot(async () => {
      if (!/x-www-form-urlencoded/i.test(String(req.headers['content-type'])))
        return sendJson(res, 415, { userMessage: 'Send the form url-encoded', statusCode: 415 });
      const form: Partial<Record<string, string>> = Object.fromEntries(new URLSearchParams((await readBody(req)) ?? ''));
      const missing = ['payerId', 'providerNpi', 'patientLastName', 'patientBirthDate'].filter((f) => !form[f]);
      if (missing.length > 0) {
        return sendJson(res, 400, {
          userMessage: 'Validation failed',
          reasonCode: 'VALIDATION',
          statusCode: 400,
          errors: missing.map((field, index) => ({ field, errorMessage: 'is required', code: 'REQUIRED', index })),
        });
      }
      const inquiry: Inquiry = {
        trace_number: randomUUID().slice(0, 9),
        payer: { id: form.payerId!, name: null },
        provider: { npi: form.providerNpi!, first_name: form.providerFirstName ?? null, last_name: form.providerLastName ?? null, organization_name: null },
        subscriber: {
          member_id: form.memberId ?? null,
          first_name: form.patientFirstName ?? null,
          last_name: form.patientLastName ?? null,
          dob: form.patientBirthDate ?? null,
          zip: null,
        },
        dependent: null,
        service_types: [form.serviceType ?? '30'],
        date: form.asOfDate ?? new Date().toISOString().slice(0, 10),
      };
      this.received.push({ payer_id: inquiry.payer.id, isa_sender_id: '', isa_receiver_id: '', usage: '', control_number: '' });
      await this.respond(req, res, inquiry);
    });
    if (done === false) sendJson(res, 429, { userMessage: 'Too Many Requests', statusCode: 429 });
  }

  private async token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.stats.token_requests++;
    const form: Partial<Record<string, string>> = Object.fromEntries(new URLSearchParams((await readBody(req)) ?? ''));
    if (form.grant_type !== 'client_credentials' || form.client_id !== SIM_SECRET || form.client_secret !== SIM_SECRET || !form.scope) {
      return sendJson(res, 401, { error: 'invalid_client' });
    }
    const ttl = this.options.tokenTtlSeconds ?? 300;
    const token = randomBytes(18).toString('base64url');
    this.tokens.set(token, Date.now() + ttl * 1000);
    sendJson(res, 200, { access_token: token, token_type: 'bearer', expires_in: ttl, scope: form.scope });
  }

  private async respond(req: IncomingMessage, res: ServerResponse, inquiry: Inquiry): Promise<void> {
    const rule = await this.fault(inquiry.payer.id, inquiry);
    if (rule?.fault === 'timeout') return new Promise<void>((resolve) => res.on('close', resolve));
    if (rule?.fault === 'http_500' || rule?.fault === 'soap_fault') return sendJson(res, 503, { userMessage: 'The payer is unavailable', statusCode: 503 });
    if (rule?.fault === 'connection_reset') return void req.socket.resetAndDestroy();
    const known = this.catalogAnswer(inquiry.payer.id, inquiry);
    if (known === null)
      return sendJson(res, 400, {
        userMessage: 'Payer not supported',
        reasonCode: 'PAYER',
        statusCode: 400,
        errors: [{ field: 'payerId', errorMessage: 'not a supported payer', code: 'INVALID', index: 0 }],
      });
    if ('http' in known) return sendJson(res, 503, { userMessage: 'The payer is unavailable', statusCode: 503 });
    const answer = rule?.fault === 'aaa_42' ? this.busy(inquiry) : known;
    const id = randomUUID();
    this.coverages.set(id, { polls: (this.options as AvailitySimOptions).pendingPolls ?? 1, status: 200, body: availityBody(id, answer.x12) });
    const oldest = this.coverages.keys().next();
    if (this.coverages.size > 1000 && !oldest.done) this.coverages.delete(oldest.value);
    res
      .writeHead(202, { 'content-type': 'application/json', location: `${AVAILITY_COVERAGES_PATH}/${id}` })
      .end(JSON.stringify({ id, status: 'In Progress', statusCode: '0' }));
  }
}

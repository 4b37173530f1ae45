/**
 * Availity's Coverages API as documented (every Availity habit the simulator copies lives here):
 * POST /v1/token (form client credentials + scope; tokens last 5 minutes); POST /v1/coverages
 * (form-urlencoded) answers 202 with a coverage summary and a Location while "the payer works", then
 * GET /v1/coverages/{id} answers 202 for the first `pendingPolls` polls and 200 with the whole
 * coverage after (availity-json.ts); 503 when the payer is down; errors as Availity's ErrorResponse
 * {userMessage, statusCode, errors[{field, errorMessage, code, index}]}. Every body it sends is of
 * Availity's schema (src/payers/vendors/availity-schema.ts; test/connections/availity-schema.test.ts).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Inquiry } from '../../../domain/inquiry.ts';
import { AVAILITY_COVERAGES_PATH, AVAILITY_TOKEN_PATH } from '../../vendors/availity.ts';
import type { Obj } from '../../vendors/json-read.ts';
import { availityCoverage } from './availity-json.ts';
import { SIM_SECRET, VendorSimBase, readBody, sendJson, type VendorSimOptions } from './common.ts';
import { isoNow } from '../../../domain/clock.ts';

export const AVAILITY_CLIENT_ID_ENV = 'COVERAGE_SIM_AVAILITY_CLIENT_ID';
export const AVAILITY_CLIENT_SECRET_ENV = 'COVERAGE_SIM_AVAILITY_CLIENT_SECRET';
export const AVAILITY_DEMO_SCOPE = 'healthcare-hipaa-transactions-demo';

export interface AvailitySimOptions extends VendorSimOptions {
  /** Polls answered 202 before the coverage is complete (default 1). */
  pendingPolls?: number;
  /** POST answers 200 with the completed coverage's summary (the payer answered at once); the whole coverage is still read by id. */
  doneOnPost?: boolean;
  /** Told every coverage request's form and every answer's status and body (tests check them against Availity's schema). */
  observe?: (exchange: { form?: Record<string, string>; status: number; body: unknown }) => void;
}

/** Fields this simulator's payers require (Availity marks none in its schema: each payer decides). */
export const AVAILITY_SIM_REQUIRED = ['payerId', 'providerNpi', 'patientFirstName', 'patientLastName', 'patientBirthDate'] as const;

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

  private send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}, form?: Record<string, string>): void {
    (this.options as AvailitySimOptions).observe?.({ ...(form ? { form } : {}), status, body });
    sendJson(res, status, body, headers);
  }

  private async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (req.method === 'POST' && url.pathname === AVAILITY_TOKEN_PATH) return this.token(req, res);
    const poll = new RegExp(`^${AVAILITY_COVERAGES_PATH}/([A-Za-z0-9-]+)$`).exec(url.pathname);
    if (!(req.method === 'POST' && url.pathname === AVAILITY_COVERAGES_PATH) && !(req.method === 'GET' && poll))
      return this.send(res, 404, { userMessage: 'Not Found', statusCode: 404 });
    const expires = this.tokens.get(String(req.headers.authorization ?? '').replace(/^Bearer\s+/i, ''));
    if (expires === undefined || expires <= this.clock.now()) return this.send(res, 401, { userMessage: 'Unauthorized', statusCode: 401 });
    if (poll) {
      this.polls++;
      const c = this.coverages.get(poll[1]!);
      if (!c) return this.send(res, 404, { userMessage: 'Coverage not found', statusCode: 404 });
      if (c.polls-- > 0) return this.send(res, 202, { id: poll[1], status: 'In Progress', statusCode: '0' });
      return this.send(res, c.status, c.body);
    }
    this.stats.requests++;
    const done = await this.inFlightSlot(async () => {
      if (!/x-www-form-urlencoded/i.test(String(req.headers['content-type'])))
        return this.send(res, 415, { userMessage: 'Send the form url-encoded', statusCode: 415 });
      const form: Partial<Record<string, string>> = Object.fromEntries(new URLSearchParams((await readBody(req)) ?? ''));
      const sent = Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => e[1] !== undefined));
      const missing = AVAILITY_SIM_REQUIRED.filter((f) => !form[f]);
      if (missing.length > 0) {
        return this.send(
          res,
          400,
          {
            userMessage: 'Validation failed',
            statusCode: 400,
            errors: missing.map((field, index) => ({ field, errorMessage: 'is required', code: 'REQUIRED', index })),
          },
          {},
          sent,
        );
      }
      const inquiry: Inquiry = {
        trace_number: randomUUID().slice(0, 9),
        payer: { id: form.payerId!, name: null },
        provider: { npi: form.providerNpi!, first_name: form.providerFirstName ?? null, last_name: form.providerLastName ?? null, organization_name: null },
        subscriber: {
          member_id: form.memberId ?? null,
          first_name: form.patientFirstName ?? null,
          last_name: form.patientLastName ?? null,
          dob: form.patientBirthDate?.slice(0, 10) ?? null,
          zip: null,
        },
        dependent: null,
        service_types: [form.serviceType ?? '30'],
        date: (form.asOfDate ?? isoNow(this.clock)).slice(0, 10),
        procedure_code: form.procedureCode ?? null,
        place_of_service: form.placeOfService ?? null,
      };
      this.received.push({ payer_id: inquiry.payer.id, isa_sender_id: '', isa_receiver_id: '', usage: '', control_number: '' });
      await this.respond(req, res, inquiry, sent);
    });
    if (done === false) this.send(res, 429, { userMessage: 'Too Many Requests', statusCode: 429 });
  }

  private async token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.stats.token_requests++;
    const form: Partial<Record<string, string>> = Object.fromEntries(new URLSearchParams((await readBody(req)) ?? ''));
    if (form.grant_type !== 'client_credentials' || form.client_id !== SIM_SECRET || form.client_secret !== SIM_SECRET || !form.scope) {
      return sendJson(res, 401, { error: 'invalid_client' });
    }
    const ttl = this.options.tokenTtlSeconds ?? 300;
    const token = randomBytes(18).toString('base64url');
    this.tokens.set(token, this.clock.now() + ttl * 1000);
    sendJson(res, 200, { access_token: token, token_type: 'bearer', expires_in: ttl, scope: form.scope });
  }

  private async respond(req: IncomingMessage, res: ServerResponse, inquiry: Inquiry, form: Record<string, string>): Promise<void> {
    const rule = await this.fault(inquiry.payer.id, inquiry);
    if (rule?.fault === 'timeout') return new Promise<void>((resolve) => res.on('close', resolve));
    if (rule?.fault === 'http_500' || rule?.fault === 'soap_fault')
      return this.send(res, 503, { userMessage: 'The payer is unavailable', statusCode: 503 }, {}, form);
    if (rule?.fault === 'connection_reset') return void req.socket.resetAndDestroy();
    const known = this.catalogAnswer(inquiry.payer.id, inquiry);
    if (known === null)
      return this.send(
        res,
        400,
        {
          userMessage: 'Payer not supported',
          statusCode: 400,
          errors: [{ field: 'payerId', errorMessage: 'not a supported payer', code: 'INVALID', index: 0 }],
        },
        {},
        form,
      );
    if ('http' in known) return this.send(res, 503, { userMessage: 'The payer is unavailable', statusCode: 503 }, {}, form);
    const answer = rule?.fault === 'aaa_42' ? this.busy(inquiry) : known;
    const id = randomUUID();
    this.coverages.set(id, { polls: (this.options as AvailitySimOptions).pendingPolls ?? 1, status: 200, body: availityCoverage(id, answer.x12, form) });
    const oldest = this.coverages.keys().next();
    if (this.coverages.size > 1000 && !oldest.done) this.coverages.delete(oldest.value);
    const options = this.options as AvailitySimOptions;
    if (options.doneOnPost) {
      const whole = this.coverages.get(id)!;
      whole.polls = 0;
      const { id: _id, status, statusCode, payer, validationMessages } = whole.body;
      const summary = { id, status, statusCode, payer, ...(validationMessages ? { validationMessages } : {}) };
      return this.send(res, 200, summary, { location: `${AVAILITY_COVERAGES_PATH}/${id}` }, form);
    }
    this.send(res, 202, { id, status: 'In Progress', statusCode: '0' }, { location: `${AVAILITY_COVERAGES_PATH}/${id}` }, form);
  }
}

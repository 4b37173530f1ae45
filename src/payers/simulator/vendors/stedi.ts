/**
 * Stedi's raw-X12 eligibility API as documented (every Stedi habit the simulator copies lives here):
 * POST /2024-04-01/change/medicalnetwork/eligibility/v3/raw-x12 with `Authorization: <key>` (or
 * `Key <key>`) and `{"x12": ...}`; 429 past the in-flight cap (5 by default); the JSON answer carries
 * the 271 in `x12` and the AAA rejections in `errors[]`, with HTTP 400 when the payer rejected; an
 * unknown payer ID is 400 with AAA 79. Stedi's documented mock members answer as documented.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Inquiry } from '../../../domain/inquiry.ts';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { STEDI_DEFAULT_IN_FLIGHT, STEDI_JSON_PATH, STEDI_RAW_X12_PATH } from '../../vendors/stedi.ts';
import { str } from '../../vendors/json-read.ts';
import { StediEligibilityRequest, StediRawX12Request } from '../../vendors/stedi-schema.ts';
import { x12ToStedi } from './stedi-json.ts';
import { inquiryFromV3 } from './optum.ts';
import {
  SIM_SECRET,
  VendorSimBase,
  findMock,
  mockAnswer,
  parse270,
  readBody,
  sendJson,
  type MockMember,
  type SimAnswer,
  type VendorSimOptions,
} from './common.ts';

export const STEDI_VERSION_PATH = '/2024-04-01';
export const STEDI_API_KEY_ENV = 'COVERAGE_SIM_STEDI_API_KEY';

/** Stedi's documented mock requests (a test key answers only these, free of charge). */
export const STEDI_MOCK_MEMBERS: readonly MockMember[] = [
  {
    payer_id: '60054',
    payer_name: 'AETNA',
    first_name: 'Jane',
    last_name: 'Doe',
    dob: '2004-04-04',
    member_id: 'AETNA12345',
    outcome: { plan: 'commercial_copay' },
  },
  {
    payer_id: '62308',
    payer_name: 'CIGNA',
    first_name: 'James',
    last_name: 'Jones',
    dob: '1991-02-02',
    member_id: '23456789100',
    outcome: { plan: 'commercial_copay' },
  },
  {
    payer_id: '61101',
    payer_name: 'HUMANA',
    first_name: 'Jane',
    last_name: 'Doe',
    dob: '1975-05-05',
    member_id: 'HUMANA123',
    outcome: { plan: 'medicare_advantage' },
  },
  {
    payer_id: '87726',
    payer_name: 'UNITEDHEALTHCARE',
    first_name: 'Jane',
    last_name: 'Doe',
    dob: '1971-01-01',
    member_id: 'UHCINACTIVE',
    outcome: { plan: 'inactive' },
  },
  {
    payer_id: '87726',
    payer_name: 'UNITEDHEALTHCARE',
    first_name: 'Jane',
    last_name: 'Doe',
    dob: '2001-01-01',
    member_id: 'UHCAAA42',
    outcome: { aaa: '42', level: 'payer', followup: 'R' },
  },
  {
    payer_id: '87726',
    payer_name: 'UNITEDHEALTHCARE',
    first_name: 'Jane',
    last_name: 'Doe',
    dob: '1990-01-01',
    member_id: 'UHCAAA75',
    outcome: { aaa: '75', level: 'subscriber', followup: 'C' },
  },
  {
    payer_id: '87726',
    payer_name: 'UNITEDHEALTHCARE',
    first_name: 'John',
    last_name: 'Doe',
    dob: '1970-01-01',
    member_id: 'UHCAAA79',
    outcome: { aaa: '79', level: 'payer', followup: 'C' },
  },
  {
    payer_id: 'CMS',
    payer_name: 'CENTERS FOR MEDICARE AND MEDICAID SERVICES',
    first_name: 'Jane',
    last_name: 'Doe',
    dob: '1955-05-05',
    member_id: 'CMS12345678',
    outcome: { plan: 'medicare' },
  },
];

/** Stedi's mock payers: primary payer ID, display name, aliases. */
export const STEDI_MOCK_PAYERS = [
  { payer_id: '60054', name: 'Aetna', aliases: ['AETNA'] },
  { payer_id: '62308', name: 'Cigna', aliases: ['CIGNA'] },
  { payer_id: '61101', name: 'Humana', aliases: ['HUMANA'] },
  { payer_id: '87726', name: 'UnitedHealthcare', aliases: ['UHC'] },
  { payer_id: 'CMS', name: 'Medicare (CMS)', aliases: ['CMSMED', 'MAPMC', 'MEDICARE'] },
] as const;

/** Stedi's ValidationException for a body our schema of its API refuses: the paths, never the values. */
function validationError(schema: TSchema, body: unknown) {
  const fieldList = [...Value.Errors(schema, body)].slice(0, 10).map((e) => ({
    path: ((e as { instancePath?: string }).instancePath ?? '').replace(/^\//, '').replace(/\//g, '.'),
    message: e.message,
  }));
  return { message: 'Request validation failed', fieldList };
}

export class StediSimulator extends VendorSimBase {
  /** Every request body received, as sent (the tests hold each to our schema of Stedi's API). */
  readonly bodies: unknown[] = [];
  /** The X-Forwarded-For header of each request (null when absent). */
  readonly forwardedFor: (string | null)[] = [];

  static async start(options: VendorSimOptions = {}): Promise<StediSimulator> {
    const sim = new StediSimulator({ maxInFlight: STEDI_DEFAULT_IN_FLIGHT, ...options });
    await sim.listen((req, res, url) => sim.handle(req, res, url));
    return sim;
  }

  get baseUrl(): string {
    return `${this.url}${STEDI_VERSION_PATH}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const json = url.pathname === `${STEDI_VERSION_PATH}${STEDI_JSON_PATH}`;
    if (req.method !== 'POST' || (!json && url.pathname !== `${STEDI_VERSION_PATH}${STEDI_RAW_X12_PATH}`)) {
      return sendJson(res, 404, { message: 'Not Found' });
    }
    this.stats.requests++;
    const xff = req.headers['x-forwarded-for'];
    this.forwardedFor.push(typeof xff === 'string' ? xff : null);
    const auth = String(req.headers.authorization ?? '').replace(/^Key\s+/i, '');
    if (auth !== SIM_SECRET) return sendJson(res, 401, { message: 'Unauthorized' });
    const done = await this.inFlightSlot(async () => {
      const text = await readBody(req);
      let body: Record<string, unknown> | null;
      try {
        body = text === null ? null : (JSON.parse(text) as Record<string, unknown>);
      } catch {
        body = null;
      }
      if (body !== null) this.bodies.push(body);
      if (this.bodies.length > 200) this.bodies.shift();
      if (json && !Value.Check(StediEligibilityRequest, body)) return sendJson(res, 400, validationError(StediEligibilityRequest, body));
      if (!json && !Value.Check(StediRawX12Request, body)) return sendJson(res, 400, validationError(StediRawX12Request, body));
      if (json) {
        const inquiry = body ? inquiryFromV3(body, this.clock.now()) : null;
        if (!inquiry) return sendJson(res, 400, { code: 'INVALID_REQUEST', message: 'tradingPartnerServiceId, provider and subscriber are required' });
        this.received.push({
          payer_id: inquiry.payer.id,
          isa_sender_id: '',
          isa_receiver_id: '',
          usage: '',
          control_number: str(body!.controlNumber),
          provider_name: inquiry.provider.last_name ?? inquiry.provider.organization_name ?? '',
          ...(inquiry.provider.taxonomy ? { provider_taxonomy: inquiry.provider.taxonomy } : {}),
        });
        return this.respond(req, res, inquiry, true);
      }
      const x12 = body?.x12;
      if (typeof x12 !== 'string') return sendJson(res, 400, { code: 'INVALID_REQUEST', message: 'body must be {"x12": "<270 interchange>"}' });
      const parsed = parse270(x12);
      if (!parsed.ok) return sendJson(res, 400, { code: 'INVALID_X12', message: 'the 270 could not be read' });
      this.remember(x12, parsed.value.payer.id, parsed.value);
      await this.respond(req, res, parsed.value, false);
    });
    if (done === false) sendJson(res, 429, { message: 'Too many concurrent requests' });
  }

  private async respond(req: IncomingMessage, res: ServerResponse, inquiry: Inquiry, json: boolean): Promise<void> {
    const payerId = inquiry.payer.id;
    const rule = await this.fault(payerId, inquiry);
    if (rule?.fault === 'timeout') return new Promise<void>((resolve) => res.on('close', resolve));
    if (rule?.fault === 'http_500' || rule?.fault === 'soap_fault') return sendJson(res, 500, { message: 'Internal Server Error' });
    if (rule?.fault === 'connection_reset') return void req.socket.resetAndDestroy();
    const mock = findMock(STEDI_MOCK_MEMBERS, payerId, inquiry);
    const known = mock ? null : this.catalogAnswer(payerId, inquiry);
    if (!mock && known === null && !STEDI_MOCK_PAYERS.some((p) => p.payer_id === payerId)) {
      // Not a payer of this account: Stedi's AAA 79, without a payer's 271.
      return sendJson(res, 400, {
        errors: [{ code: '79', description: 'Invalid Participant Identification', followupAction: 'Please Correct and Resubmit', location: 'Loop 2100A' }],
        status: 'ERROR',
      });
    }
    if (known && 'http' in known) return sendJson(res, known.http, { message: known.http === 429 ? 'Too Many Requests' : 'Internal Server Error' });
    let answer: SimAnswer = mock
      ? mockAnswer(this, mock, inquiry)
      : (known ?? this.answer(inquiry, { kind: 'reject', level: 'subscriber', reason_code: '75', followup: 'C' }));
    if (rule?.fault === 'aaa_42') answer = this.busy(inquiry);
    // Both endpoints answer Stedi's JSON with the 271 in `x12`; a payer's AAA rejection comes with HTTP 400.
    const body = x12ToStedi(answer.x12) ?? { errors: [] };
    const x12 = rule?.fault === 'malformed_x12' ? answer.x12.slice(0, Math.floor(answer.x12.length / 2)) : answer.x12;
    const errors = Array.isArray(body.errors) ? body.errors : [];
    sendJson(res, errors.length > 0 ? 400 : 200, {
      controlNumber: json ? inquiry.trace_number : controlOf(answer.x12),
      tradingPartnerServiceId: payerId,
      meta: { applicationMode: 'test', senderId: 'STEDI' },
      ...body,
      x12,
    });
  }
}

/** ISA13 of the 271. */
const controlOf = (x12: string) => x12.slice(x12.indexOf('ISA') + 90, x12.indexOf('ISA') + 99);

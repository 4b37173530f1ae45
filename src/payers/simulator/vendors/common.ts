/**
 * What every vendor simulator shares: an HTTP server on loopback, request counts
 * (`GET /simulator/stats`), the in-flight count, the `sim` secret, the --faults plan, and answers to a
 * 270 from the sandbox catalog as X12 (the vendor files add their mock members and their own habits).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IsoDate } from '../../../domain/coverage.ts';
import { systemClock, type Clock } from '../../../domain/clock.ts';
import type { Inquiry } from '../../../domain/inquiry.ts';
import { CATALOG, type Catalog } from '../../../sandbox/catalog.ts';
import { build271, el, parse270, readInterchange, type PayerAnswer } from '../../../x12/index.ts';
import { coverageFor } from '../../sandbox/network.ts';
import { answerInquiry, busyAnswer } from '../answer.ts';
import { FaultTable, type FaultPlan, type FaultRule } from '../faults.ts';

/** Every secret the simulators accept: API key, client ID and secret, username and password. */
export const SIM_SECRET = 'sim';
const MAX_REQUEST_BYTES = 1024 * 1024;

export interface VendorSimOptions {
  port?: number;
  host?: string;
  catalog?: Catalog;
  latencyMs?: number;
  faults?: FaultPlan;
  /** Checks in flight before the vendor answers 429 (Stedi's documented default: 5). */
  maxInFlight?: number;
  /** Lifetime of issued OAuth tokens, in seconds. */
  tokenTtlSeconds?: number;
  /**
   * The simulator's clock (the machine's by default): its day answers the inquiries, its time the
   * tokens' lives and the latencies; a test shares its clock with the connection it serves.
   */
  clock?: Clock;
}

export interface SimStats {
  token_requests: number;
  requests: number;
}

/** An X12 answer, plus the AAA rejections it carries (for the vendor's JSON `errors[]`). */
export interface SimAnswer {
  x12: string;
  aaa: { code: string; followup: string; level: string }[];
}

export type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

export async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_REQUEST_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** AAA segments of an X12 answer: code (AAA03), follow-up (AAA04) and the loop they sit in. */
export function aaaOf(x12: string): SimAnswer['aaa'] {
  const element = x12[x12.indexOf('ISA') + 3] ?? '*';
  const terminator = x12[x12.indexOf('ISA') + 105] ?? '~';
  const out: SimAnswer['aaa'] = [];
  let level = 'payer';
  for (const raw of x12.split(terminator)) {
    const parts = raw.trim().split(element);
    if (parts[0] === 'HL') level = parts[3] === '20' ? 'payer' : parts[3] === '21' ? 'provider' : parts[3] === '22' ? 'subscriber' : 'dependent';
    if (parts[0] === 'AAA') out.push({ code: parts[3] ?? '', followup: parts[4] ?? '', level });
  }
  return out;
}

/** Who a received 270 said it was from and to: never its content. */
export interface ReceivedInterchange {
  payer_id: string;
  isa_sender_id: string;
  isa_receiver_id: string;
  usage: string;
  control_number: string;
  /** 2100B: "LAST, FIRST" for a person, the organization's name otherwise. */
  provider_name?: string;
  /** 2100B PRV03: the provider's NUCC taxonomy code, when the 270 carried one. */
  provider_taxonomy?: string;
}

export class VendorSimBase {
  readonly stats: SimStats = { token_requests: 0, requests: 0 };
  /** The last 1000 interchanges received, oldest first. */
  readonly received: ReceivedInterchange[] = [];
  readonly faults: FaultTable;
  readonly catalog: Catalog;
  protected readonly clock: Clock;
  inFlight = 0;
  private url_ = '';
  private server: Server | null = null;

  constructor(readonly options: VendorSimOptions) {
    this.catalog = options.catalog ?? CATALOG;
    this.faults = new FaultTable(options.faults);
    this.clock = options.clock ?? systemClock;
  }

  /** The day the simulator answers for. */
  today(): IsoDate {
    return this.clock.today();
  }

  get url(): string {
    return this.url_;
  }

  async listen(handler: Handler): Promise<void> {
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://sim');
      const work = req.method === 'GET' && url.pathname === '/simulator/stats' ? Promise.resolve(sendJson(res, 200, this.stats)) : handler(req, res, url);
      work.catch(() => {
        if (!res.headersSent) sendJson(res, 500, { message: 'simulator error' });
        else res.destroy();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', () => resolve());
    });
    this.server = server;
    const { address, port } = server.address() as AddressInfo;
    this.url_ = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }

  /** Runs `work` counted as in flight, or answers false when the cap is reached. */
  async inFlightSlot<T>(work: () => Promise<T>): Promise<T | false> {
    if (this.inFlight >= (this.options.maxInFlight ?? Number.MAX_SAFE_INTEGER)) return false;
    this.inFlight++;
    try {
      return await work();
    } finally {
      this.inFlight--;
    }
  }

  remember(x12: string, payerId: string, inquiry?: Inquiry): void {
    const ic = readInterchange(x12);
    const isa = ic.ok ? ic.value.isa : null;
    this.received.push({
      payer_id: payerId,
      isa_sender_id: isa ? el(isa, 6).trim() : '',
      isa_receiver_id: isa ? el(isa, 8).trim() : '',
      usage: isa ? el(isa, 15) : '',
      control_number: isa ? el(isa, 13) : '',
      ...(inquiry
        ? {
            provider_name: inquiry.provider.last_name
              ? `${inquiry.provider.last_name}, ${inquiry.provider.first_name ?? ''}`.trim()
              : (inquiry.provider.organization_name ?? ''),
            ...(inquiry.provider.taxonomy ? { provider_taxonomy: inquiry.provider.taxonomy } : {}),
          }
        : {}),
    });
    if (this.received.length > 1000) this.received.shift();
  }

  /** The fault planned for this payer/member, after the simulator's latency. */
  async fault(payerId: string, inquiry: Inquiry): Promise<FaultRule | null> {
    const rule = this.faults.pick(payerId, inquiry.subscriber.member_id ?? inquiry.dependent?.member_id ?? null);
    if (this.options.latencyMs) await this.clock.sleep(this.options.latencyMs);
    if (rule?.fault === 'latency') await this.clock.sleep(rule.latency_ms ?? 1000);
    return rule;
  }

  /** The catalog's answer for a payer it serves, as X12; null when the payer is not in the catalog. */
  catalogAnswer(payerId: string, inquiry: Inquiry): SimAnswer | { http: 429 | 500 } | null {
    if (!this.catalog.payers.some((p) => p.payer_id === payerId)) return null;
    const answer = answerInquiry(this.catalog, payerId, inquiry, this.today());
    if (answer.kind === 'http') return { http: answer.status };
    return { x12: answer.x12, aaa: aaaOf(answer.x12) };
  }

  answer(inquiry: Inquiry, payerAnswer: PayerAnswer): SimAnswer {
    const x12 = build271(inquiry, payerAnswer);
    return { x12, aaa: aaaOf(x12) };
  }

  busy(inquiry: Inquiry): SimAnswer {
    const x12 = busyAnswer(inquiry);
    return { x12, aaa: aaaOf(x12) };
  }
}

export { parse270 };

/** A vendor's documented mock member: who it is and what the payer answers. */
export interface MockMember {
  payer_id: string;
  payer_name: string;
  first_name: string;
  last_name: string;
  dob: string;
  member_id: string;
  /** A sandbox plan (src/sandbox/plans.ts), or an AAA reject reason. */
  outcome: { plan: string } | { aaa: string; level: 'payer' | 'subscriber'; followup: 'C' | 'N' | 'R' | 'W' | 'X' | 'Y' };
}

/** The X12 answer for a mock member, built like the sandbox's own (coverageFor) with the mock's identity. */
export function mockAnswer(sim: VendorSimBase, mock: MockMember, inquiry: Inquiry): SimAnswer {
  if ('aaa' in mock.outcome) {
    return sim.answer(inquiry, { kind: 'reject', level: mock.outcome.level, reason_code: mock.outcome.aaa, followup: mock.outcome.followup });
  }
  const coverage = coverageFor(
    sim.catalog,
    {
      payer_id: mock.payer_id,
      plan: mock.outcome.plan,
      overrides: undefined,
      answer: { kind: 'coverage' },
      member_id: mock.member_id,
      person: { first_name: mock.first_name, last_name: mock.last_name, dob: mock.dob, gender: 'U' },
      subscriber: null,
      relationship: 'self',
      address: { street_line_1: '1 MOCK ST', street_line_2: null, city: 'NEW YORK', state: 'NY', zip: '10001' },
      scenario: 'vendor_mock',
    },
    sim.today(),
  );
  return sim.answer(inquiry, { kind: 'coverage', coverage: { ...coverage, payer_id: mock.payer_id, payer_name: mock.payer_name } });
}

/** The mock member a 270 asks about: by payer and member ID, or payer, name and DOB. */
export function findMock(mocks: readonly MockMember[], payerId: string, inquiry: Inquiry): MockMember | undefined {
  const who = inquiry.dependent ?? inquiry.subscriber;
  const id = (inquiry.subscriber.member_id ?? '').toUpperCase();
  const same = (a: string | null | undefined, b: string) => (a ?? '').trim().toUpperCase() === b.toUpperCase();
  return mocks.find(
    (m) =>
      m.payer_id === payerId &&
      (id !== '' ? id === m.member_id.toUpperCase() : same(who.first_name, m.first_name) && same(who.last_name, m.last_name) && who.dob === m.dob),
  );
}

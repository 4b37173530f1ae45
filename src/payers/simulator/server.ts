/**
 * The payer simulator: a standalone CAQH CORE server (SOAP at /core/{payer_id}/soap, MIME at
 * /core/{payer_id}/mime) answering 270s from the sandbox catalog, with injectable faults.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CATALOG, type Catalog } from '../../sandbox/catalog.ts';
import { build999, el, parse270, readInterchange } from '../../x12/index.ts';
import {
  CORE_RULE_VERSION,
  CoreEnvelopeError,
  PAYLOAD_271,
  PAYLOAD_999,
  PROCESSING_MODE,
  coreTimeStamp,
  validateCoreRequest,
  type CoreRequest,
  type CoreResponse,
} from '../core/fields.ts';
import { decodeMime, encodeMimeResponse } from '../core/mime.ts';
import { SOAP_CONTENT_TYPE, decodeSoap, encodeSoapFault, encodeSoapResponse } from '../core/soap.ts';
import { answerInquiry, busyAnswer, type SimulatedAnswer } from './answer.ts';
import { FaultTable, type FaultPlan } from './faults.ts';
import { replayAnswer } from './replay.ts';
import { systemClock, type Clock } from '../../domain/clock.ts';

export interface SimulatedPayer {
  payer_id: string;
  name: string;
  supports_search: boolean;
  medicaid_state: string | null;
}

export interface SimulatorOptions {
  port?: number;
  host?: string;
  catalog?: Catalog;
  /** The simulator's clock: its day answers the inquiries, its time the latencies (the machine's by default). */
  clock?: Clock;
  /** Added to every answer, before any fault. */
  latencyMs?: number;
  faults?: FaultPlan;
  /** Synthetic payers SIM-PAYER-001... that answer searches and know no named member. */
  extraPayers?: number;
  /** Answer from the recorded 271s in this folder instead of the catalog (replay.ts), read at each request. */
  replayDir?: string;
}

type Protocol = 'soap' | 'mime';

/** Who an inquiry said it was from and to, in the CORE envelope and in the X12 interchange it carried: never its content. */
export interface ReceivedEnvelope {
  payer_id: string;
  core_sender_id: string;
  core_receiver_id: string;
  isa_sender_id: string;
  isa_receiver_id: string;
  gs_sender_id: string;
  gs_receiver_id: string;
  usage: string;
}
const KEPT_ENVELOPES = 1000;
const MAX_REQUEST_BYTES = 1024 * 1024;

export function simulatedPayers(catalog: Catalog, extra: number): SimulatedPayer[] {
  const synthetic = Array.from({ length: extra }, (_, i) => ({
    payer_id: `SIM-PAYER-${String(i + 1).padStart(3, '0')}`,
    name: `Simulated Payer ${i + 1}`,
    supports_search: true,
    medicaid_state: null,
  }));
  return [...catalog.payers.map((p) => ({ ...p })), ...synthetic];
}

async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_REQUEST_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export class PayerSimulator {
  readonly faults: FaultTable;
  private readonly counts = new Map<string, number>();
  private readonly envelopes: ReceivedEnvelope[] = [];
  private readonly byId: Map<string, SimulatedPayer>;
  private readonly catalog: Catalog;
  private readonly clock: Clock;
  private url_ = '';

  private constructor(
    private readonly server: Server,
    private readonly options: SimulatorOptions,
  ) {
    this.catalog = options.catalog ?? CATALOG;
    this.clock = options.clock ?? systemClock;
    this.byId = new Map(simulatedPayers(this.catalog, options.extraPayers ?? 0).map((p) => [p.payer_id, p]));
    this.faults = new FaultTable(options.faults);
  }

  static async start(options: SimulatorOptions = {}): Promise<PayerSimulator> {
    const server = createServer();
    const sim = new PayerSimulator(server, options);
    server.on('request', (req, res) => {
      sim.handle(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end('simulator error');
        else res.destroy();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });
    const { address, port } = server.address() as AddressInfo;
    sim.url_ = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
    return sim;
  }

  get url(): string {
    return this.url_;
  }

  payers(): SimulatedPayer[] {
    return [...this.byId.values()];
  }

  endpoint(payerId: string, protocol: Protocol): string {
    return `${this.url}/core/${encodeURIComponent(payerId)}/${protocol}`;
  }

  /** Requests that reached the simulator, for one payer or all. */
  hits(payerId?: string): number {
    if (payerId !== undefined) return this.counts.get(payerId) ?? 0;
    let total = 0;
    for (const n of this.counts.values()) total += n;
    return total;
  }

  /** The envelope identities of the last inquiries received (up to 1000), oldest first. */
  received(payerId?: string): ReceivedEnvelope[] {
    return this.envelopes.filter((e) => payerId === undefined || e.payer_id === payerId);
  }

  private remember(payerId: string, request: CoreRequest): void {
    const ic = readInterchange(request.Payload);
    const isa = ic.ok ? ic.value.isa : null;
    const gs = ic.ok ? ic.value.groups[0]?.gs : undefined;
    this.envelopes.push({
      payer_id: payerId,
      core_sender_id: request.SenderID,
      core_receiver_id: request.ReceiverID,
      isa_sender_id: isa ? el(isa, 6).trim() : '',
      isa_receiver_id: isa ? el(isa, 8).trim() : '',
      gs_sender_id: gs ? el(gs, 2) : '',
      gs_receiver_id: gs ? el(gs, 3) : '',
      usage: isa ? el(isa, 15) : '',
    });
    if (this.envelopes.length > KEPT_ENVELOPES) this.envelopes.shift();
  }

  setFaults(plan: FaultPlan): void {
    this.faults.set(plan);
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const route = /^\/core\/([^/?]+)\/(soap|mime)(?:\?.*)?$/.exec(req.url ?? '');
    const payer = route ? this.byId.get(decodeURIComponent(route[1]!)) : undefined;
    if (req.method !== 'POST' || !route || !payer) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no such CORE endpoint');
      return;
    }
    const protocol = route[2] as Protocol;
    this.counts.set(payer.payer_id, (this.counts.get(payer.payer_id) ?? 0) + 1);
    const body = await readBody(req);
    if (!body) {
      res.writeHead(413, { 'content-type': 'text/plain' }).end('request too large');
      return;
    }
    let request: CoreRequest;
    try {
      request = await this.decodeRequest(protocol, body, String(req.headers['content-type'] ?? ''));
    } catch (err) {
      const code = err instanceof CoreEnvelopeError ? err.errorCode : 'EnvelopeError';
      return this.envelopeError(res, protocol, code, (err as Error).message);
    }
    this.remember(payer.payer_id, request);
    const respond = (payload: string, payloadType = PAYLOAD_271, payloadId = request.PayloadID) =>
      this.reply(res, protocol, {
        PayloadType: payloadType,
        ProcessingMode: PROCESSING_MODE,
        PayloadID: payloadId,
        TimeStamp: coreTimeStamp(),
        SenderID: request.ReceiverID,
        ReceiverID: request.SenderID,
        CORERuleVersion: CORE_RULE_VERSION,
        Payload: payload,
        ErrorCode: 'Success',
        ErrorMessage: '',
      });

    const parsed = parse270(request.Payload);
    if (!parsed.ok) {
      const e = parsed.error;
      return respond(
        build999(request.Payload, [{ segment_id: e.segment_id, position: e.segment_index, code: '8', description: 'segment has data element errors' }]),
        PAYLOAD_999,
      );
    }
    const inquiry = parsed.value;
    const rule = this.faults.pick(payer.payer_id, inquiry.subscriber.member_id ?? inquiry.dependent?.member_id ?? null);
    if (this.options.latencyMs) await this.clock.sleep(this.options.latencyMs);

    switch (rule?.fault) {
      case 'timeout':
        return; // never answers; the socket closes when the client gives up or the simulator stops
      case 'http_500':
        res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
        return;
      case 'connection_reset':
        req.socket.resetAndDestroy();
        return;
      case 'soap_fault': {
        // As some payers do, the fault's prose names the member: the service must not keep it.
        const p = inquiry.dependent ?? inquiry.subscriber;
        const who = `${p.first_name ?? ''} ${p.last_name ?? ''}, DOB ${p.dob ?? '?'}, member ${inquiry.subscriber.member_id ?? '?'}`;
        return this.envelopeError(res, protocol, 'Receiver', `Service temporarily unavailable for ${who}`, 500);
      }
      case 'reject_999':
        return respond(
          build999(request.Payload, [{ segment_id: 'NM1', position: null, code: '8', description: 'segment has data element errors' }]),
          PAYLOAD_999,
        );
      case 'aaa_42':
        return respond(busyAnswer(inquiry));
      case 'latency':
        await this.clock.sleep(rule.latency_ms ?? 1000);
        break;
      default:
        break;
    }
    const answer: SimulatedAnswer = this.options.replayDir
      ? { kind: 'x12', x12: replayAnswer(this.options.replayDir, request.Payload, inquiry) }
      : answerInquiry(this.catalog, payer.payer_id, inquiry, this.clock.today());
    if (answer.kind === 'http') {
      res
        .writeHead(answer.status, { 'content-type': 'text/plain', ...(answer.status === 429 ? { 'retry-after': '60' } : {}) })
        .end(answer.status === 429 ? 'Too Many Requests' : 'Internal Server Error');
      return;
    }
    if (rule?.fault === 'malformed_x12') return respond(answer.x12.slice(0, Math.floor(answer.x12.length / 2)));
    if (rule?.fault === 'wrong_payload_id') return respond(answer.x12, PAYLOAD_271, randomUUID());
    return respond(answer.x12);
  }

  private async decodeRequest(protocol: Protocol, body: Buffer, contentType: string): Promise<CoreRequest> {
    if (protocol === 'soap') {
      let message;
      try {
        message = decodeSoap(body.toString('utf8'));
      } catch (err) {
        throw new CoreEnvelopeError('EnvelopeError', (err as Error).message);
      }
      if (message.kind !== 'request') throw new CoreEnvelopeError('EnvelopeError', 'expected a COREEnvelopeRealTimeRequest');
      if (!message.username || !message.password) throw new CoreEnvelopeError('AuthenticationFailed', 'missing WS-Security UsernameToken');
      return validateCoreRequest(message.fields);
    }
    let fields;
    try {
      fields = await decodeMime(body, contentType);
    } catch (err) {
      throw new CoreEnvelopeError('EnvelopeError', (err as Error).message);
    }
    if (!fields.UserName || !fields.Password) throw new CoreEnvelopeError('AuthenticationFailed', 'missing UserName or Password');
    return validateCoreRequest(fields);
  }

  private async reply(res: ServerResponse, protocol: Protocol, fields: CoreResponse): Promise<void> {
    if (protocol === 'soap') {
      res.writeHead(200, { 'content-type': SOAP_CONTENT_TYPE }).end(encodeSoapResponse(fields));
      return;
    }
    const { body, contentType } = await encodeMimeResponse(fields);
    res.writeHead(200, { 'content-type': contentType }).end(body);
  }

  private async envelopeError(res: ServerResponse, protocol: Protocol, code: string, message: string, status = 400): Promise<void> {
    if (protocol === 'soap') {
      res.writeHead(status, { 'content-type': SOAP_CONTENT_TYPE }).end(encodeSoapFault(status >= 500 ? 'Receiver' : 'Sender', `${code}: ${message}`));
      return;
    }
    const { body, contentType } = await encodeMimeResponse({
      PayloadType: '',
      ProcessingMode: PROCESSING_MODE,
      PayloadID: '',
      TimeStamp: coreTimeStamp(),
      SenderID: '',
      ReceiverID: '',
      CORERuleVersion: CORE_RULE_VERSION,
      Payload: '',
      ErrorCode: code,
      ErrorMessage: message,
    });
    res.writeHead(status, { 'content-type': contentType }).end(body);
  }
}

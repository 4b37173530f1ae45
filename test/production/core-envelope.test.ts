/** The CORE vC2.2.0 request the connectors send, and the answers they refuse. */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import { CORE_NAMESPACE, CORE_REQUEST_FIELDS, PAYLOAD_271, type CoreRequest } from '../../src/payers/core/fields.ts';
import { decodeMime } from '../../src/payers/core/mime.ts';
import { decodeSoap, encodeSoapResponse, SOAP_NAMESPACE } from '../../src/payers/core/soap.ts';
import { loadDirectory, parseDirectory } from '../../src/payers/directory.ts';
import { PayerError } from '../../src/payers/network.ts';
import { ProductionNetwork } from '../../src/payers/production/network.ts';
import { checkCoreAnswer } from '../../src/payers/production/core-exchange.ts';
import { build270, build999 } from '../../src/x12/index.ts';
import { buildInquiry } from '../../src/operations/inquiry.ts';

/** A payer endpoint that records what it receives and answers with whatever the test sets. */
let captured: { contentType: string; body: string }[] = [];
let answer: (req: CoreRequest) => { status: number; contentType: string; body: string } = () => ({ status: 500, contentType: 'text/plain', body: 'unset' });
const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = Buffer.concat(chunks);
  const contentType = String(req.headers['content-type']);
  captured.push({ contentType, body: body.toString('utf8') });
  const fields = req.url!.endsWith('/mime')
    ? await decodeMime(body, contentType)
    : (decodeSoap(body.toString('utf8')) as { fields: Record<string, string> }).fields;
  const a = answer(fields as CoreRequest);
  res.writeHead(a.status, { 'content-type': a.contentType }).end(a.body);
});
let network: ProductionNetwork;
const inquiry = buildInquiry(
  { payer_id: 'P1', member_id: 'M123', first_name: 'Pat', last_name: 'Doe', dob: '1980-01-01', provider_npi: '1234567893' },
  '2026-06-15',
);
const x12 = build270(inquiry, { control_number: 1 });
const ctx = () => ({ request_id: 'test', deadline: Date.now() + 2_000 });

before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const directory = parseDirectory({
    sender_id: 'OUR-SENDER',
    payers: [
      {
        payer_id: 'P1',
        name: 'Soap Payer',
        endpoint: `${base}/core/soap`,
        protocol: 'core-soap',
        receiver_id: 'PAYER-RCV',
        supports_search: true,
        credentials: { username_env: 'T_USER', password_env: 'T_PASS' },
      },
      {
        payer_id: 'P2',
        name: 'Mime Payer',
        endpoint: `${base}/core/mime`,
        protocol: 'core-mime',
        supports_search: false,
        credentials: { username_env: 'T_USER', password_env: 'T_PASS' },
      },
    ],
  });
  network = new ProductionNetwork(directory, { timeoutMs: 2_000, env: { T_USER: 'svc-user', T_PASS: 's3cret&<' } });
});
after(async () => {
  await network.close();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const echo271 = (req: CoreRequest, overrides: Partial<Record<string, string>> = {}) => ({
  status: 200,
  contentType: 'application/soap+xml; charset=utf-8',
  body: encodeSoapResponse({
    ...req,
    PayloadType: PAYLOAD_271,
    Payload: x12.replace('ST*270', 'ST*271'),
    SenderID: req.ReceiverID,
    ReceiverID: req.SenderID,
    ErrorCode: 'Success',
    ErrorMessage: '',
    ...overrides,
  }),
});

describe('CORE SOAP request', () => {
  test('carries every required field, WS-Security UsernameToken and the 270 in CDATA', async () => {
    captured = [];
    answer = (req) => echo271(req);
    await network.exchange('P1', x12, ctx());
    const { contentType, body } = captured[0]!;
    assert.match(contentType, /^application\/soap\+xml/);
    assert.ok(body.includes(`xmlns:soapenv="${SOAP_NAMESPACE}"`));
    assert.ok(body.includes(`xmlns:cor="${CORE_NAMESPACE}"`));
    assert.ok(body.includes('<Payload><![CDATA[ISA'));
    const doc = new XMLParser({ removeNSPrefix: true, parseTagValue: false, ignoreAttributes: false }).parse(body);
    const fields = doc.Envelope.Body.COREEnvelopeRealTimeRequest;
    assert.deepEqual(Object.keys(fields), [...CORE_REQUEST_FIELDS]);
    assert.equal(fields.PayloadType, 'X12_270_Request_005010X279A1');
    assert.equal(fields.ProcessingMode, 'RealTime');
    assert.match(fields.PayloadID, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.match(fields.TimeStamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.equal(fields.SenderID, 'OUR-SENDER');
    assert.equal(fields.ReceiverID, 'PAYER-RCV');
    assert.equal(fields.CORERuleVersion, '2.2.0');
    assert.equal(fields.Payload, x12);
    const token = doc.Envelope.Header.Security.UsernameToken;
    assert.equal(token.Username, 'svc-user');
    assert.equal(token.Password['#text'], 's3cret&<');
    assert.match(token.Password['@_Type'], /#PasswordText$/);
  });

  test('a fresh PayloadID per request', async () => {
    captured = [];
    answer = (req) => echo271(req);
    await network.exchange('P1', x12, ctx());
    await network.exchange('P1', x12, ctx());
    const ids = captured.map((c) => (decodeSoap(c.body) as { fields: Record<string, string> }).fields.PayloadID);
    assert.notEqual(ids[0], ids[1]);
  });
});

describe('CORE MIME request', () => {
  test('multipart/form-data with the same field names plus UserName and Password', async () => {
    captured = [];
    answer = () => ({ status: 500, contentType: 'text/plain', body: 'x' });
    await assert.rejects(network.exchange('P2', x12, ctx()), PayerError);
    const { contentType, body } = captured[0]!;
    const fields = await decodeMime(Buffer.from(body), contentType);
    assert.deepEqual(Object.keys(fields), [...CORE_REQUEST_FIELDS, 'UserName', 'Password']);
    assert.equal(fields.UserName, 'svc-user');
    assert.equal(fields.Password, 's3cret&<');
    assert.equal(fields.Payload, x12);
    assert.equal(fields.ReceiverID, 'P2', 'ReceiverID defaults to the payer id');
  });
});

describe('answers the connectors refuse', () => {
  const rejects = (reason: RegExp) => (err: unknown) => err instanceof PayerError && err.kind === 'protocol' && reason.test(err.reason);

  test('a wrong PayloadID', async () => {
    answer = (req) => echo271(req, { PayloadID: '00000000-0000-4000-8000-000000000000' });
    await assert.rejects(network.exchange('P1', x12, ctx()), rejects(/PayloadID mismatch/));
  });

  test('a SOAP fault: its code is kept for the operator, its prose (which may name the member) is not', async () => {
    answer = () => ({
      status: 500,
      contentType: 'application/soap+xml',
      body: `<?xml version="1.0"?><s:Envelope xmlns:s="${SOAP_NAMESPACE}"><s:Body><s:Fault><s:Code><s:Value>s:Receiver</s:Value></s:Code><s:Reason><s:Text xml:lang="en">Backend down</s:Text></s:Reason></s:Fault></s:Body></s:Envelope>`,
    });
    await assert.rejects(network.exchange('P1', x12, ctx()), rejects(/^SOAP fault Receiver$/));
  });

  test('a CORE ErrorCode', async () => {
    answer = (req) => echo271(req, { ErrorCode: 'Receiver', ErrorMessage: 'try later', Payload: '' });
    await assert.rejects(network.exchange('P1', x12, ctx()), rejects(/^CORE error Receiver$/));
  });

  test('unparseable X12 in a 271 payload', async () => {
    answer = (req) => echo271(req, { Payload: 'not x12 at all' });
    await assert.rejects(network.exchange('P1', x12, ctx()), rejects(/unparseable X12/));
  });

  test('a 999 comes back as a 999, which the operation turns into PAYER_FAILURE', () => {
    const req = { PayloadID: 'a' } as CoreRequest;
    const ack = build999(x12, [{ segment_id: 'NM1', position: 4, code: '8', description: 'segment has data element errors' }]);
    assert.equal(checkCoreAnswer('P1', req, { PayloadID: 'a', PayloadType: 'X12_999_Response_005010X231A1', Payload: ack, ErrorCode: 'Success' }), ack);
    assert.throws(
      () => checkCoreAnswer('P1', req, { PayloadID: 'a', PayloadType: PAYLOAD_271, Payload: ack, ErrorCode: 'Success' }),
      rejects(/payload is a 999/),
    );
  });
});

describe('payer directory', () => {
  test('rejects unknown fields, bad protocols and duplicate payers', () => {
    const payer = { payer_id: 'A', name: 'A', endpoint: 'https://a.example/core', protocol: 'core-soap', supports_search: true };
    assert.doesNotThrow(() => parseDirectory({ sender_id: 'SX', payers: [payer] }));
    assert.throws(() => parseDirectory({ sender_id: 'SX', payers: [{ ...payer, protocol: 'ftp' }] }), /invalid/);
    assert.throws(() => parseDirectory({ sender_id: 'SX', payers: [{ ...payer, password: 'x' }] }), /invalid/);
    assert.throws(() => parseDirectory({ sender_id: 'SX', payers: [payer, payer] }), /twice/);
  });

  test('interchange IDs fit ISA06/ISA08: a longer sender_id or receiver_id is refused, never cut', () => {
    const payer = { payer_id: 'A', name: 'A', endpoint: 'https://a.example/core', protocol: 'core-soap', supports_search: true };
    assert.doesNotThrow(() => parseDirectory({ sender_id: 'HAPPY MIND 0001', payers: [payer] }));
    assert.throws(() => parseDirectory({ sender_id: 'COVERAGE-SERVICE', payers: [payer] }), /invalid: \/sender_id/);
    assert.throws(() => parseDirectory({ sender_id: 'S', payers: [payer] }), /invalid: \/sender_id/);
    assert.throws(() => parseDirectory({ sender_id: 'A*B', payers: [payer] }), /invalid: \/sender_id/);
    assert.throws(() => parseDirectory({ sender_id: 'SX', payers: [{ ...payer, receiver_id: 'R'.repeat(16) }] }), /invalid/);
    assert.throws(() => parseDirectory({ sender_id: 'SX', payers: [{ ...payer, payer_id: 'P'.repeat(16) }] }), /needs a receiver_id of at most 15/);
    assert.doesNotThrow(() => parseDirectory({ sender_id: 'SX', payers: [{ ...payer, payer_id: 'P'.repeat(16), receiver_id: 'P16' }] }));
  });

  test('the example directory the docs name is valid', () => {
    assert.doesNotThrow(() => loadDirectory(fileURLToPath(new URL('../../examples/payers.example.json', import.meta.url))));
  });

  test('a credential environment variable that is not set fails at start', () => {
    const directory = parseDirectory({
      sender_id: 'SX',
      payers: [
        {
          payer_id: 'A',
          name: 'A',
          endpoint: 'https://a.example/core',
          protocol: 'core-soap',
          supports_search: true,
          credentials: { username_env: 'NOPE_U', password_env: 'NOPE_P' },
        },
      ],
    });
    assert.throws(() => new ProductionNetwork(directory, { timeoutMs: 1000, env: {} }), /NOPE_U and NOPE_P is not set/);
  });
});

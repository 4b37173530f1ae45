/**
 * CORE on the wire (issue 22): the SOAP 1.2 content type names the action the CORE WSDL declares,
 * MTOM/XOP (multipart/related) answers are read like plain envelopes within the input caps, and the
 * MIME Payload is a plain form field sent byte for byte.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import { PAYLOAD_271, type CoreRequest } from '../../src/payers/core/fields.ts';
import { decodeMime } from '../../src/payers/core/mime.ts';
import { MAX_MTOM_PARTS, unpackMtom } from '../../src/payers/core/mtom.ts';
import { decodeSoap, encodeSoapResponse, SOAP_ACTION } from '../../src/payers/core/soap.ts';
import { parseDirectory } from '../../src/payers/directory.ts';
import { PayerError } from '../../src/payers/network.ts';
import { ProductionNetwork } from '../../src/payers/production/network.ts';
import { build270 } from '../../src/x12/index.ts';
import { buildInquiry } from '../../src/operations/inquiry.ts';

let captured: { contentType: string; body: Buffer }[] = [];
let answer: (req: CoreRequest) => { contentType: string; body: Buffer | string } = () => ({ contentType: 'text/plain', body: 'unset' });
const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = Buffer.concat(chunks);
  const contentType = String(req.headers['content-type']);
  captured.push({ contentType, body });
  const fields = req.url!.endsWith('/mime')
    ? await decodeMime(body, contentType)
    : (decodeSoap(body.toString('utf8')) as { fields: Record<string, string> }).fields;
  const a = answer(fields as CoreRequest);
  res.writeHead(200, { 'content-type': a.contentType }).end(a.body);
});
let network: ProductionNetwork;
const inquiry = buildInquiry(
  { payer_id: 'P1', member_id: 'M123', first_name: 'Pat', last_name: 'Doe', dob: '1980-01-01', provider_npi: '1234567893' },
  '2026-06-15',
);
const x12 = build270(inquiry, { control_number: 1 });
const the271 = x12.replace('ST*270', 'ST*271');
const ctx = () => ({ request_id: 'test', deadline: Date.now() + 2_000 });

before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const payer = (payer_id: string, protocol: 'core-soap' | 'core-mime') => ({
    payer_id,
    name: payer_id,
    endpoint: `${base}/core/${protocol === 'core-soap' ? 'soap' : 'mime'}`,
    protocol,
    supports_search: false,
    credentials: { username_env: 'T_USER', password_env: 'T_PASS' },
  });
  const directory = parseDirectory({ sender_id: 'OUR-SENDER', payers: [payer('P1', 'core-soap'), payer('P2', 'core-mime')] });
  network = new ProductionNetwork(directory, { timeoutMs: 2_000, env: { T_USER: 'svc-user', T_PASS: 'pw' } });
});
after(async () => {
  await network.close();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const responseFields = (req: CoreRequest, payload: string) => ({
  ...req,
  PayloadType: PAYLOAD_271,
  Payload: payload,
  SenderID: req.ReceiverID,
  ReceiverID: req.SenderID,
  ErrorCode: 'Success',
  ErrorMessage: '',
});

/** An MTOM answer: the envelope in the root part, the 271 in a part of its own that Payload includes. */
function mtom(req: CoreRequest, opts: { encoding?: 'binary' | 'base64'; cid?: string; boundary?: string } = {}) {
  const boundary = opts.boundary ?? 'uuid:6b62cda6-95c3-4a9c-a4b7+id=1';
  const cid = opts.cid ?? 'payload-1@core.example';
  const envelope = encodeSoapResponse(responseFields(req, '@@INCLUDE@@')).replace(
    '<Payload><![CDATA[@@INCLUDE@@]]></Payload>',
    `<Payload><xop:Include xmlns:xop="http://www.w3.org/2004/08/xop/include" href="cid:${encodeURIComponent(cid)}"/></Payload>`,
  );
  const payload =
    opts.encoding === 'base64'
      ? Buffer.from(the271)
          .toString('base64')
          .replace(/(.{76})/g, '$1\r\n')
      : the271;
  const body =
    `--${boundary}\r\nContent-ID: <root.message@core.example>\r\nContent-Transfer-Encoding: 8bit\r\n` +
    `Content-Type: application/xop+xml;charset=utf-8;type="application/soap+xml"\r\n\r\n${envelope}\r\n` +
    `--${boundary}\r\nContent-ID: <${cid}>\r\nContent-Transfer-Encoding: ${opts.encoding ?? 'binary'}\r\nContent-Type: application/octet-stream\r\n\r\n${payload}\r\n` +
    `--${boundary}--\r\n`;
  return {
    contentType: `multipart/related; type="application/xop+xml"; start="<root.message@core.example>"; boundary="${boundary}"; start-info="application/soap+xml"`,
    body: Buffer.from(body),
  };
}

describe('SOAP action', () => {
  test('the request content type carries action="RealTimeTransaction", the soapAction the CORE WSDL declares', async () => {
    const wsdl = new XMLParser({ ignoreAttributes: false, removeNSPrefix: true }).parse(
      readFileSync(new URL('../fixtures/core/core2.wsdl', import.meta.url), 'utf8'),
    );
    const ops = wsdl.definitions.binding.operation as { '@_name': string; operation: { '@_soapAction': string } }[];
    const declared = ops.find((o) => o['@_name'] === 'RealTimeTransaction')!.operation['@_soapAction'];
    assert.equal(declared, SOAP_ACTION);
    captured = [];
    answer = (req) => ({ contentType: 'application/soap+xml; charset=utf-8', body: encodeSoapResponse(responseFields(req, the271)) });
    await network.exchange('P1', x12, ctx());
    const type = captured[0]!.contentType;
    assert.match(type, /^application\/soap\+xml\s*;/);
    assert.equal(/;\s*action="([^"]*)"/.exec(type)?.[1], declared);
  });
});

describe('MTOM/XOP answers', () => {
  test('the 271 in a binary part that Payload includes is read', async () => {
    answer = (req) => mtom(req);
    assert.equal(await network.exchange('P1', x12, ctx()), the271);
  });

  test('a base64 part and a cid that needs URL-decoding are read', async () => {
    answer = (req) => mtom(req, { encoding: 'base64', cid: 'a b/c@x' });
    assert.equal(await network.exchange('P1', x12, ctx()), the271);
  });

  test('an MTOM answer with the payload inline in its root part is read', async () => {
    answer = (req) => {
      const envelope = encodeSoapResponse(responseFields(req, the271));
      const b = 'MIMEBoundary_abc';
      return {
        contentType: `multipart/related; type="application/xop+xml"; boundary=${b}`,
        body: Buffer.from(`--${b}\r\nContent-Type: application/xop+xml; charset=UTF-8; type="application/soap+xml"\r\n\r\n${envelope}\r\n--${b}--`),
      };
    };
    assert.equal(await network.exchange('P1', x12, ctx()), the271);
  });

  const refused = (err: unknown) => err instanceof PayerError && err.kind === 'protocol' && /^unreadable SOAP answer/.test(err.reason);

  test('an Include naming no part is refused as unreadable, not read as empty', async () => {
    answer = (req) => {
      const a = mtom(req);
      return { ...a, body: Buffer.from(a.body.toString().replace('Content-ID: <payload-1@core.example>', 'Content-ID: <other@x>')) };
    };
    await assert.rejects(network.exchange('P1', x12, ctx()), refused);
  });

  test('the input guard holds: too many parts, or no closing boundary, is refused', async () => {
    answer = (req) => {
      const a = mtom(req);
      const extra = Array.from({ length: MAX_MTOM_PARTS }, (_, i) => `--uuid:6b62cda6-95c3-4a9c-a4b7+id=1\r\nContent-ID: <x${i}>\r\n\r\nx\r\n`).join('');
      return { ...a, body: Buffer.concat([Buffer.from(extra), a.body]) };
    };
    await assert.rejects(network.exchange('P1', x12, ctx()), refused);
    answer = (req) => {
      const a = mtom(req);
      return { ...a, body: a.body.subarray(0, a.body.length - 40) };
    };
    await assert.rejects(network.exchange('P1', x12, ctx()), refused);
    assert.throws(() => unpackMtom(Buffer.from('x'), 'multipart/related; type="application/xop+xml"'), /without a boundary/);
  });
});

describe('MIME Payload', () => {
  test('every field, Payload included, is a plain form field (no filename), and the X12 goes byte for byte', async () => {
    captured = [];
    const withNewlines = x12.replace(/~/g, '~\n');
    answer = () => ({ contentType: 'text/plain', body: 'x' });
    await assert.rejects(network.exchange('P2', withNewlines, ctx()), PayerError);
    const { contentType, body } = captured[0]!;
    const text = body.toString('utf8');
    const dispositions = text.match(/Content-Disposition:[^\r\n]*/g)!;
    assert.ok(dispositions.length >= 8);
    for (const d of dispositions) assert.match(d, /^Content-Disposition: form-data; name="[A-Za-z]+"$/);
    assert.ok(!/filename/i.test(text));
    assert.ok(text.includes(`name="Payload"\r\n\r\n${withNewlines}\r\n--`), 'the payload bytes are unchanged (no CRLF rewriting)');
    const fields = await decodeMime(body, contentType);
    assert.equal(fields.Payload, withNewlines);
  });
});

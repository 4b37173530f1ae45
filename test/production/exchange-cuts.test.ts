/**
 * The production exchange's cheaper pieces (issue 27) against copies of the code they replace, on
 * random inputs: the envelope writer's escaping, CDATA and time stamp, the request envelope itself,
 * and the answer's headers read in one pass.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { CORE_NAMESPACE, CORE_REQUEST_FIELDS, coreTimeStamp, type CoreRequest, type Credentials } from '../../src/payers/core/fields.ts';
import { cdata, encodeSoapRequest, SOAP_NAMESPACE, xmlEscape } from '../../src/payers/core/soap.ts';
import { answerHeaders } from '../../src/payers/production/transport.ts';

// The code before the cuts, as it was.
const oldXmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
const oldCdata = (s: string) => `<![CDATA[${s.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
const oldTimeStamp = (now: Date) => now.toISOString().replace(/\.\d{3}Z$/, 'Z');
const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const PASSWORD_TEXT = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText';
const oldField = (name: string, value: string) => (name === 'Payload' ? `<Payload>${oldCdata(value)}</Payload>` : `<${name}>${oldXmlEscape(value)}</${name}>`);
function oldEncodeSoapRequest(req: CoreRequest, credentials: Credentials | null): string {
  const security = credentials
    ? `<wsse:Security xmlns:wsse="${WSSE}" xmlns:wsu="${WSU}" soapenv:mustUnderstand="true">` +
      `<wsse:UsernameToken wsu:Id="UsernameToken-${oldXmlEscape(req.PayloadID)}">` +
      `<wsse:Username>${oldXmlEscape(credentials.username)}</wsse:Username>` +
      `<wsse:Password Type="${PASSWORD_TEXT}">${oldXmlEscape(credentials.password)}</wsse:Password>` +
      `</wsse:UsernameToken></wsse:Security>`
    : '';
  const fields = CORE_REQUEST_FIELDS.map((f) => oldField(f, req[f])).join('');
  return (
    `<?xml version="1.0" encoding="UTF-8"?>` +
    `<soapenv:Envelope xmlns:soapenv="${SOAP_NAMESPACE}" xmlns:cor="${CORE_NAMESPACE}">` +
    `<soapenv:Header>${security}</soapenv:Header><soapenv:Body><cor:COREEnvelopeRealTimeRequest>${fields}</cor:COREEnvelopeRealTimeRequest></soapenv:Body></soapenv:Envelope>`
  );
}
function oldFirstHeader(raw: Buffer[], name: string): string | null {
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i]!;
    if (key.length === name.length && key.toString('latin1').toLowerCase() === name) return raw[i + 1]!.toString('latin1');
  }
  return null;
}

// Text rich in what escaping and CDATA care about.
const awkward = fc.oneof(
  fc.string(),
  fc.string({ unit: fc.constantFrom('&', '<', '>', '"', "'", ']', ']]>', 'a', ' ', 'é', '\u{1F600}', '&amp;') }),
  fc.string({ unit: 'grapheme' }),
);

test('xmlEscape and cdata write what the five replaces and the split did', () => {
  fc.assert(
    fc.property(awkward, (s) => {
      assert.equal(xmlEscape(s), oldXmlEscape(s));
      assert.equal(cdata(s), oldCdata(s));
    }),
    { numRuns: 5000 },
  );
});

test('coreTimeStamp writes what the regex did, extended years included', () => {
  fc.assert(
    fc.property(fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }), (d) => assert.equal(coreTimeStamp(d), oldTimeStamp(d))),
    { numRuns: 5000 },
  );
  // Within one second (the stamp is kept for its second), and back and forth across seconds.
  fc.assert(
    fc.property(fc.integer({ min: -8.64e15 + 2000, max: 8.64e15 - 2000 }), fc.array(fc.integer({ min: -1500, max: 1500 }), { maxLength: 8 }), (ms, steps) => {
      for (const step of [0, ...steps]) {
        const d = new Date(ms + step);
        assert.equal(coreTimeStamp(d), oldTimeStamp(d));
      }
    }),
    { numRuns: 3000 },
  );
  for (const d of [new Date(0), new Date('9999-12-31T23:59:59.999Z'), new Date('+010000-01-01T00:00:00.000Z'), new Date('-000001-01-01T00:00:00.000Z')]) {
    assert.equal(coreTimeStamp(d), oldTimeStamp(d));
  }
});

test('encodeSoapRequest writes the envelope it wrote before, with and without credentials', () => {
  const request = fc.record(
    Object.fromEntries(CORE_REQUEST_FIELDS.map((f) => [f, awkward])) as Record<(typeof CORE_REQUEST_FIELDS)[number], fc.Arbitrary<string>>,
  );
  const credentials = fc.option(fc.record({ username: awkward, password: awkward }), { nil: null });
  fc.assert(
    fc.property(request, credentials, (req, cred) => assert.equal(encodeSoapRequest(req, cred), oldEncodeSoapRequest(req, cred))),
    { numRuns: 2000 },
  );
});

test('the answer headers read in one pass are the first of each, as three scans read them', () => {
  const name = fc.oneof(
    fc.constantFrom(
      'content-type',
      'Content-Type',
      'CONTENT-TYPE',
      'retry-after',
      'Retry-After',
      'location',
      'Location',
      'LOCATION',
      'content-length',
      'x-location',
      'date',
    ),
    fc.string({ minLength: 1, maxLength: 14 }),
  );
  const raw = fc
    .array(fc.tuple(name, fc.string({ maxLength: 20 })), { maxLength: 12 })
    .map((pairs) => pairs.flatMap(([k, v]) => [Buffer.from(k, 'latin1'), Buffer.from(v, 'latin1')]));
  fc.assert(
    fc.property(raw, (headers) => {
      assert.deepStrictEqual(answerHeaders(headers), {
        contentType: oldFirstHeader(headers, 'content-type') ?? '',
        retryAfter: oldFirstHeader(headers, 'retry-after'),
        location: oldFirstHeader(headers, 'location'),
      });
    }),
    { numRuns: 5000 },
  );
});

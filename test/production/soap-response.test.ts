/**
 * The narrow CORE response reader (src/payers/core/soap-response.ts) against fast-xml-parser, the
 * reader it stands in front of: on generated envelopes, plainly written or not, and on malformed
 * ones, decodeSoap gives what decodeSoapDocument gives (the same message, or the same refusal).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { CORE_NAMESPACE, PAYLOAD_271 } from '../../src/payers/core/fields.ts';
import { CORE_RESPONSE_FIELDS, readCoreResponse } from '../../src/payers/core/soap-response.ts';
import { readCoreResponseBefore } from './fixtures/soap-response-before.ts';
import { cdata, decodeSoap, decodeSoapDocument, encodeSoapFault, encodeSoapResponse, SOAP_NAMESPACE, xmlEscape } from '../../src/payers/core/soap.ts';

const outcome = (read: (xml: string) => unknown, xml: string) => {
  try {
    return { ok: read(xml) };
  } catch (err) {
    return { error: (err as Error).message };
  }
};

function assertSame(xml: string): void {
  assert.deepStrictEqual(outcome(decodeSoap, xml), outcome(decodeSoapDocument, xml), `differ on ${JSON.stringify(xml)}`);
  // And the narrow reader reads what it read before its cuts (fields in the same order too).
  const now = readCoreResponse(xml);
  const before = readCoreResponseBefore(xml);
  assert.deepStrictEqual(now, before, `the reader changed on ${JSON.stringify(xml)}`);
  assert.deepStrictEqual(now && Object.keys(now), before && Object.keys(before));
}

const response = {
  PayloadType: PAYLOAD_271,
  ProcessingMode: 'RealTime',
  PayloadID: 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6',
  TimeStamp: '2026-11-27T01:00:00Z',
  SenderID: 'PAYER',
  ReceiverID: 'US',
  CORERuleVersion: '2.2.0',
  Payload: 'ISA*00*          *00*          *ZZ*PAYER          *ZZ*US             *261127*0100*^*00501*000000001*0*P*:~IEA*0*000000001~',
  ErrorCode: 'Success',
  ErrorMessage: '',
};

test('an answer as the simulator and our encoder write it is read by the narrow reader, to the same fields', () => {
  const xml = encodeSoapResponse(response);
  assert.deepStrictEqual(readCoreResponse(xml), response);
  assert.deepStrictEqual(decodeSoap(xml), decodeSoapDocument(xml));
});

test('a SOAP fault, a DOCTYPE, a comment and a bare ampersand go to fast-xml-parser, which reads or refuses them as before', () => {
  const xml = encodeSoapResponse(response);
  const variants = [
    encodeSoapFault('Receiver', 'down'),
    xml.replace('<?xml version="1.0" encoding="UTF-8"?>', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "boom">]>').replace('>PAYER<', '>&e;<'),
    xml.replace('<ErrorCode>', '<!-- hi --><ErrorCode>'),
    xml.replace('>PAYER<', '>A & B<'),
    xml.replace('>PAYER<', '>A &#65; B<'),
    xml.replace('</soapenv:Envelope>', ''),
    xml.replace('<SenderID>PAYER</SenderID>', '<SenderID>PAYER</SenderID><SenderID>OTHER</SenderID>'),
  ];
  for (const v of variants) {
    assert.equal(readCoreResponse(v), null, v);
    assertSame(v);
  }
});

/** Text for a field value, with XML's awkward characters likely. */
const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom('<', '>', '&', ';', ']', '\r', '\n', ' ', '\t', '"', "'", '\u00a0', 'amp', 'lt', '#65', 'A', '*', '~'),
    fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }),
  ),
  maxLength: 30,
});
/** Mostly what the narrow reader takes, sometimes what it leaves to fast-xml-parser. */
const mostly = <T>(usual: fc.Arbitrary<T>, unusual: fc.Arbitrary<T>, weight = 9) => fc.oneof({ arbitrary: usual, weight }, { arbitrary: unusual, weight: 1 });
/** For what each field of an envelope chooses: one unusual field spoils the envelope for the narrow reader. */
const rarely = <T>(usual: fc.Arbitrary<T>, unusual: fc.Arbitrary<T>) => mostly(usual, unusual, 60);
const name = mostly(fc.constantFrom('', 'soapenv:', 'soap:', 's:', 'cor:', 'a.b-c_:'), fc.constantFrom('xmlns:', '1a:', 'a:b:'));
const ws = mostly(fc.constantFrom('', ' ', '\n', '\r\n', '\t', '  \n ', '\r'), fc.constantFrom('\u00a0', 'x'));
const attribute = mostly(
  fc.constantFrom('', ` xmlns:soapenv="${SOAP_NAMESPACE}"`, ` xmlns:cor="${CORE_NAMESPACE}"`, ' a="1"', " a='1'", ' a = "1" b=\'2\' '),
  fc.constantFrom(' a="1" a="2"', ' a = "x>y"', ' a="&amp;"', ' a', ' xml:lang="en"', ' b="1"c="2"'),
);
const declaration = mostly(
  fc.constantFrom('', '<?xml version="1.0" encoding="UTF-8"?>', "<?xml version='1.0'?>", '<?xml version="1.0" encoding="UTF-8" ?>\n', '<?xml?>'),
  fc.constantFrom('<?xml-stylesheet href="x"?>', ' <?xml version="1.0"?>', '<?xml version="1.0"?><?xml version="1.0"?>'),
);

/** A field's value as written: escaped text, raw text, CDATA (whole or split), or empty forms. */
const fieldBody = (value: string) =>
  rarely(
    fc.constantFrom(`>${xmlEscape(value)}</`, `>${cdata(value)}</`, ` >${cdata(value)}</`, `>${cdata(value)}${cdata(value)}</`, '/>', '></'),
    fc.constantFrom(`>${value}</`, `> ${cdata(value)} </`, `>${cdata(value)}x</`),
  );

const field = fc
  .tuple(
    rarely(fc.constantFrom<string>(...CORE_RESPONSE_FIELDS), fc.constantFrom('Other', '__proto__', 'Payload')),
    rarely(fc.constantFrom('', 'soapenv:', 'cor:', 'a.b-c_:'), fc.constantFrom('xmlns:', '1a:', 'a:b:')),
    text,
    rarely(fc.constantFrom('', ' ', '\n', '\r\n', '\t'), fc.constantFrom('\u00a0', 'x')),
    rarely(fc.constant(false), fc.constant(true)),
  )
  .chain(([local, prefix, value, space, closeSpace]) =>
    fieldBody(value).map((body) => {
      const q = `${prefix}${local}`;
      return { local, xml: body === '/>' ? `${space}<${q}/>` : `${space}<${q}${body}${q}${closeSpace ? ' ' : ''}>` };
    }),
  );

const element = (local: string, inner: string, prefix: string, attrs: string, space: string) =>
  `<${prefix}${local}${attrs}>${space}${inner}${space}</${prefix}${local}>`;

const envelope = fc
  .record({
    decl: declaration,
    prefix: name,
    bodyPrefix: name,
    attrs: attribute,
    responseAttrs: attribute,
    space: ws,
    header: mostly(
      fc.constantFrom('', '<soapenv:Header/>', '<soapenv:Header></soapenv:Header>', '<soapenv:Header> </soapenv:Header>', '<Header/>'),
      fc.constantFrom('<soapenv:Header><x/></soapenv:Header>', '<soapenv:Header>x</soapenv:Header>'),
    ),
    // A field repeated, or none, is the full parser's.
    fields: mostly(fc.uniqueArray(field, { minLength: 1, maxLength: 10, selector: (f) => f.local }), fc.array(field, { minLength: 0, maxLength: 4 })).map(
      (fs) => fs.map((f) => f.xml),
    ),
    responseName: mostly(fc.constant('COREEnvelopeRealTimeResponse'), fc.constantFrom('COREEnvelopeRealTimeRequest', 'Fault', 'COREEnvelopeRealTimeResponseX')),
    trailing: mostly(fc.constantFrom('', ' ', '\n'), fc.constantFrom('x', '<a/>', '<!-- c -->')),
  })
  .map((e) => {
    const responseEl = element(e.responseName, e.fields.join(''), e.bodyPrefix, e.responseAttrs, e.space);
    const body = element('Body', responseEl, e.prefix, '', e.space);
    return `${e.decl}${element('Envelope', `${e.header}${e.space}${body}`, e.prefix, e.attrs, e.space)}${e.trailing}`;
  });

test('decodeSoap reads generated envelopes exactly as fast-xml-parser does', () => {
  let taken = 0;
  fc.assert(
    fc.property(envelope, (xml) => {
      if (readCoreResponse(xml) !== null) taken++;
      assertSame(xml);
    }),
    { numRuns: 3000 },
  );
  // Both kinds in good number: what the narrow reader reads, and what it leaves to fast-xml-parser.
  assert.ok(taken > 500 && taken < 2500, `the narrow reader took ${taken} of 3,000`);
});

test('and malformed ones: cut short, a character dropped, doubled or replaced', () => {
  const plain = fc.oneof(
    envelope,
    fc.record({ v: text, p: text }).map(({ v, p }) => encodeSoapResponse({ ...response, SenderID: v, Payload: p })),
  );
  const mutated = fc
    .tuple(plain, fc.nat(), fc.constantFrom('cut', 'drop', 'double', 'replace'), fc.constantFrom('<', '>', '/', '&', ']', '"', ' ', 'x', '!', '?'))
    .map(([xml, at, how, c]) => {
      const i = xml.length === 0 ? 0 : at % xml.length;
      if (how === 'cut') return xml.slice(0, i);
      if (how === 'drop') return xml.slice(0, i) + xml.slice(i + 1);
      if (how === 'double') return xml.slice(0, i + 1) + xml.slice(i);
      return xml.slice(0, i) + c + xml.slice(i + 1);
    });
  fc.assert(fc.property(mutated, assertSame), { numRuns: 5000 });
});

test('the narrow reader takes the plainly written answers (so the comparison above covers it)', () => {
  let taken = 0;
  fc.assert(
    fc.property(fc.record({ v: text, p: text, m: text }), ({ v, p, m }) => {
      const xml = encodeSoapResponse({ ...response, SenderID: v, Payload: p, ErrorMessage: m });
      if (readCoreResponse(xml) !== null) taken++;
      assertSame(xml);
    }),
    { numRuns: 1000 },
  );
  // Values whose CDATA or escapes it passes on (a "]]>" split, say) are few.
  assert.ok(taken > 900, `the narrow reader took only ${taken} of 1,000`);
});

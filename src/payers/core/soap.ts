/**
 * CORE SOAP 1.2 codec: COREEnvelopeRealTimeRequest with a WS-Security UsernameToken header,
 * COREEnvelopeRealTimeResponse, and SOAP faults. Both directions, so the simulator speaks it too.
 */
import { XMLParser } from 'fast-xml-parser';
import { CORE_NAMESPACE, CORE_REQUEST_FIELDS, type CoreRequest, type CoreResponse, type Credentials } from './fields.ts';
import { CORE_RESPONSE_FIELDS, readCoreResponse } from './soap-response.ts';

export const SOAP_NAMESPACE = 'http://www.w3.org/2003/05/soap-envelope';
export const SOAP_CONTENT_TYPE = 'application/soap+xml; charset=utf-8';
/** The CORE WSDL's soapAction of the real-time operation (soap12:operation soapAction="RealTimeTransaction"). */
export const SOAP_ACTION = 'RealTimeTransaction';
/** SOAP 1.2 carries the action as the content type's `action` parameter (RFC 3902), not a SOAPAction header. */
export const SOAP_REQUEST_CONTENT_TYPE = `${SOAP_CONTENT_TYPE}; action="${SOAP_ACTION}"`;
const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const PASSWORD_TEXT = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText';

const NEEDS_ESCAPE = /[&<>"']/;

export function xmlEscape(s: string): string {
  // Nearly every value (IDs, codes, time stamps) has nothing to escape: no five passes over it.
  if (!NEEDS_ESCAPE.test(s)) return s;
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** CDATA cannot contain "]]>"; split it across two sections. */
export function cdata(s: string): string {
  if (!s.includes(']]>')) return `<![CDATA[${s}]]>`;
  return `<![CDATA[${s.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
}

function field(name: string, value: string): string {
  return name === 'Payload' ? `<Payload>${cdata(value)}</Payload>` : `<${name}>${xmlEscape(value)}</${name}>`;
}

function envelope(header: string, body: string): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>` +
    `<soapenv:Envelope xmlns:soapenv="${SOAP_NAMESPACE}" xmlns:cor="${CORE_NAMESPACE}">` +
    `<soapenv:Header>${header}</soapenv:Header><soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`
  );
}

export function encodeSoapRequest(req: CoreRequest, credentials: Credentials | null): string {
  const security = credentials
    ? `<wsse:Security xmlns:wsse="${WSSE}" xmlns:wsu="${WSU}" soapenv:mustUnderstand="true">` +
      `<wsse:UsernameToken wsu:Id="UsernameToken-${xmlEscape(req.PayloadID)}">` +
      `<wsse:Username>${xmlEscape(credentials.username)}</wsse:Username>` +
      `<wsse:Password Type="${PASSWORD_TEXT}">${xmlEscape(credentials.password)}</wsse:Password>` +
      `</wsse:UsernameToken></wsse:Security>`
    : '';
  let fields = '';
  for (const f of CORE_REQUEST_FIELDS) fields += field(f, req[f]);
  return envelope(security, `<cor:COREEnvelopeRealTimeRequest>${fields}</cor:COREEnvelopeRealTimeRequest>`);
}

export function encodeSoapResponse(res: CoreResponse): string {
  const fields = CORE_RESPONSE_FIELDS.map((f) => field(f, res[f])).join('');
  return envelope('', `<cor:COREEnvelopeRealTimeResponse>${fields}</cor:COREEnvelopeRealTimeResponse>`);
}

export function encodeSoapFault(code: 'Sender' | 'Receiver', reason: string): string {
  return envelope(
    '',
    `<soapenv:Fault><soapenv:Code><soapenv:Value>soapenv:${code}</soapenv:Value></soapenv:Code>` +
      `<soapenv:Reason><soapenv:Text xml:lang="en">${xmlEscape(reason)}</soapenv:Text></soapenv:Reason></soapenv:Fault>`,
  );
}

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: false,
});

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

export type SoapMessage =
  | { kind: 'request'; fields: Partial<Record<string, string>>; username: string | null; password: string | null }
  | { kind: 'response'; fields: Partial<Record<string, string>> }
  | { kind: 'fault'; code: string; reason: string };

/** Reads a SOAP 1.2 envelope; throws on anything that is not one. */
export function decodeSoap(xml: string): SoapMessage {
  // Every answer to an inquiry: read without fast-xml-parser when plainly written (soap-response.ts).
  const fields = readCoreResponse(xml);
  return fields ? { kind: 'response', fields } : decodeSoapDocument(xml);
}

/** decodeSoap through fast-xml-parser (validation first): any SOAP 1.2 envelope, and the refusal of anything else. */
export function decodeSoapDocument(xml: string): SoapMessage {
  let doc: unknown;
  try {
    doc = parser.parse(xml, true);
  } catch (err) {
    throw new Error(`not well-formed XML: ${err instanceof Error ? err.message.split('\n')[0] : 'parse error'}`);
  }
  const env = isNode(doc) ? doc.Envelope : undefined;
  if (!isNode(env)) throw new Error('no SOAP Envelope');
  const body = env.Body;
  if (!isNode(body)) throw new Error('no SOAP Body');
  const flat = (n: Node) => Object.fromEntries(Object.entries(n).map(([k, v]) => [k, text(v)]));
  if (isNode(body.Fault)) {
    const f = body.Fault;
    const code = isNode(f.Code) ? text(f.Code.Value) : '';
    const reason = isNode(f.Reason) ? (isNode(f.Reason.Text) ? text(f.Reason.Text['#text']) : text(f.Reason.Text)) : '';
    return { kind: 'fault', code: code.replace(/^.*:/, ''), reason };
  }
  if (isNode(body.COREEnvelopeRealTimeResponse)) return { kind: 'response', fields: flat(body.COREEnvelopeRealTimeResponse) };
  if (isNode(body.COREEnvelopeRealTimeRequest)) {
    const header = isNode(env.Header) ? env.Header : {};
    const token = isNode(header.Security) && isNode(header.Security.UsernameToken) ? header.Security.UsernameToken : null;
    const password = token ? (isNode(token.Password) ? text(token.Password['#text']) : text(token.Password)) : '';
    return {
      kind: 'request',
      fields: flat(body.COREEnvelopeRealTimeRequest),
      username: token ? text(token.Username) || null : null,
      password: password || null,
    };
  }
  throw new Error('SOAP Body holds no CORE real-time envelope');
}

/**
 * One CORE real-time round trip over SOAP or MIME: envelope the 270, POST it, and check what
 * came back (SOAP fault, CORE ErrorCode, PayloadID, PayloadType, X12 kind). Returns the X12 answer.
 * SOAP requests name the WSDL's action (RealTimeTransaction) in their content type; SOAP answers may
 * come as MTOM/XOP multipart/related (core/mtom.ts), read like a plain envelope.
 */
import type { Pool } from 'undici';
import { detectTransactionSet } from '../../x12/index.ts';
import { PAYLOAD_271, PAYLOAD_999, type CoreRequest, type Credentials } from '../core/fields.ts';
import { decodeMime, encodeMimeRequest } from '../core/mime.ts';
import { unpackMtom } from '../core/mtom.ts';
import { decodeSoap, encodeSoapRequest, SOAP_REQUEST_CONTENT_TYPE } from '../core/soap.ts';
import { PayerError } from '../network.ts';
import { httpFailure, post, type HttpAnswer } from './transport.ts';

export type CoreProtocol = 'core-soap' | 'core-mime';

/*
 * Payer prose (a SOAP fault's Reason, a CORE ErrorMessage) is never kept: payers write member names,
 * DOBs and IDs into it. The operator gets the fault's class and code, and only codes from the known
 * lists; anything else is "unrecognized".
 */
const SOAP_FAULT_CODES = new Set(['Sender', 'Receiver', 'VersionMismatch', 'MustUnderstand', 'DataEncodingUnknown']);
const CORE_ERROR_CODES = new Set([
  'Success',
  'Sender',
  'Receiver',
  'EnvelopeError',
  'AuthenticationFailed',
  'Unauthorized',
  'VersionMismatch',
  'Timeout',
  'PayloadIDInvalid',
  'PayloadIDRequired',
  'PayloadRequired',
  'PayloadTypeIllegal',
  'PayloadTypeNotSupported',
  'PayloadTypeRequired',
  'ProcessingModeIllegal',
  'ProcessingModeNotSupported',
  'ProcessingModeRequired',
  'TimeStampInvalid',
  'TimeStampRequired',
  'SenderIDRequired',
  'SenderIDIllegal',
  'ReceiverIDRequired',
  'ReceiverIDIllegal',
  'CORERuleVersionRequired',
  'CORERuleVersionNotSupported',
]);
const knownCode = (codes: ReadonlySet<string>, value: string | undefined) => {
  const code = (value ?? '').trim();
  return codes.has(code) ? code : code === '' ? '(none)' : 'unrecognized';
};
const knownPayloadType = (value: string | undefined) => (/^X12_[0-9A-Za-z_]{1,60}$/.test(value ?? '') ? value! : value ? 'unrecognized' : '(none)');
/** Our decoders' own words up to the first colon: what follows may quote the payer's answer. */
const decoderClass = (err: unknown) => ((err as Error)?.message ?? 'error').split(/[:,]/)[0]!.trim();

/** The SOAP answer's CORE fields; synchronous, so the answer is read in the turn it arrived in. */
function decodeSoapAnswer(payerId: string, answer: HttpAnswer): Partial<Record<string, string>> {
  const isXml = /xml/i.test(answer.contentType);
  if (!isXml && answer.status !== 200) throw httpFailure(payerId, answer);
  let message;
  try {
    const multipart = /^multipart\/related\s*;/i.test(answer.contentType);
    message = decodeSoap(multipart ? unpackMtom(answer.body, answer.contentType) : answer.body.toString('utf8'));
  } catch (err) {
    if (answer.status !== 200) throw httpFailure(payerId, answer);
    throw new PayerError('protocol', payerId, `unreadable SOAP answer: ${decoderClass(err)}`);
  }
  if (message.kind === 'fault') throw new PayerError('protocol', payerId, `SOAP fault ${knownCode(SOAP_FAULT_CODES, message.code)}`);
  if (message.kind !== 'response') throw new PayerError('protocol', payerId, 'SOAP answer is not a COREEnvelopeRealTimeResponse');
  if (answer.status !== 200) throw httpFailure(payerId, answer);
  return message.fields;
}

async function decodeMimeAnswer(payerId: string, answer: HttpAnswer): Promise<Partial<Record<string, string>>> {
  if (answer.status !== 200 && !/multipart\/form-data/i.test(answer.contentType)) throw httpFailure(payerId, answer);
  try {
    return await decodeMime(answer.body, answer.contentType);
  } catch (err) {
    if (answer.status !== 200) throw httpFailure(payerId, answer);
    throw new PayerError('protocol', payerId, `unreadable MIME answer: ${decoderClass(err)}`);
  }
}

/** The checks every CORE answer must pass before its payload is trusted. */
export function checkCoreAnswer(payerId: string, req: CoreRequest, fields: Partial<Record<string, string>>): string {
  const errorCode = fields.ErrorCode?.trim() ?? '';
  if (errorCode !== '' && errorCode !== 'Success') {
    throw new PayerError('protocol', payerId, `CORE error ${knownCode(CORE_ERROR_CODES, errorCode)}`);
  }
  if (fields.PayloadID !== req.PayloadID) throw new PayerError('protocol', payerId, 'PayloadID mismatch: the answer belongs to another request');
  const payload = fields.Payload ?? '';
  const expected = fields.PayloadType === PAYLOAD_271 ? '271' : fields.PayloadType === PAYLOAD_999 ? '999' : null;
  if (!expected) throw new PayerError('protocol', payerId, `unexpected PayloadType ${knownPayloadType(fields.PayloadType)}`);
  const kind = detectTransactionSet(payload);
  if (kind !== expected) {
    throw new PayerError('protocol', payerId, kind ? `PayloadType says ${expected} but the payload is a ${kind}` : `unparseable X12 in a ${expected} payload`);
  }
  return payload;
}

export async function coreExchange(
  pool: Pool,
  path: string,
  protocol: CoreProtocol,
  payerId: string,
  req: CoreRequest,
  credentials: Credentials | null,
  signal: AbortSignal,
): Promise<string> {
  if (protocol === 'core-soap') {
    // No await but the exchange's own: the envelope is written and the answer read in the turns they happen in.
    const answer = await post(pool, payerId, path, encodeSoapRequest(req, credentials), SOAP_REQUEST_CONTENT_TYPE, signal);
    return checkCoreAnswer(payerId, req, decodeSoapAnswer(payerId, answer));
  }
  const { body, contentType } = await encodeMimeRequest(req, credentials);
  const answer = await post(pool, payerId, path, body, contentType, signal);
  return checkCoreAnswer(payerId, req, await decodeMimeAnswer(payerId, answer));
}

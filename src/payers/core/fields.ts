/**
 * CAQH CORE Connectivity vC2.2.0 real-time envelope fields (docs/interface.md section 6), shared by the
 * SOAP and MIME codecs, the production connectors and the payer simulator.
 */
import { randomUUID } from 'node:crypto';
import { dateOf, systemClock } from '../../domain/clock.ts';

export const CORE_NAMESPACE = 'http://www.caqh.org/SOAP/WSDL/CORERule2.2.0.xsd';
export const CORE_RULE_VERSION = '2.2.0';
export const PAYLOAD_270 = 'X12_270_Request_005010X279A1';
export const PAYLOAD_271 = 'X12_271_Response_005010X279A1';
export const PAYLOAD_999 = 'X12_999_Response_005010X231A1';
export const PROCESSING_MODE = 'RealTime';

/** Every field a real-time request carries, in the order the CORE rule lists them. */
export const CORE_REQUEST_FIELDS = ['PayloadType', 'ProcessingMode', 'PayloadID', 'TimeStamp', 'SenderID', 'ReceiverID', 'CORERuleVersion', 'Payload'] as const;

export type CoreRequestField = (typeof CORE_REQUEST_FIELDS)[number];
export type CoreRequest = Record<CoreRequestField, string>;

export interface CoreResponse extends CoreRequest {
  ErrorCode: string;
  ErrorMessage: string;
}

export interface Credentials {
  username: string;
  password: string;
}

/** ISO 8601 UTC without milliseconds, as the CORE examples write TimeStamp. */
let stampedSecond = Number.NaN;
let stamped = '';

export function coreTimeStamp(now: Date = dateOf(systemClock)): string {
  // Every exchange within one second writes the same stamp: written once per second.
  const second = Math.floor(now.getTime() / 1000);
  if (second === stampedSecond) return stamped;
  const iso = now.toISOString();
  // YYYY-MM-DDTHH:mm:ss.sssZ (years 0 to 9999): drop the milliseconds without a regex.
  stamped = iso.length === 24 ? `${iso.slice(0, 19)}Z` : iso.replace(/\.\d{3}Z$/, 'Z');
  stampedSecond = second;
  return stamped;
}

export function newCoreRequest(x12: string, senderId: string, receiverId: string, now: Date = dateOf(systemClock)): CoreRequest {
  return {
    PayloadType: PAYLOAD_270,
    ProcessingMode: PROCESSING_MODE,
    PayloadID: randomUUID(),
    TimeStamp: coreTimeStamp(now),
    SenderID: senderId,
    ReceiverID: receiverId,
    CORERuleVersion: CORE_RULE_VERSION,
    Payload: x12,
  };
}

/** A request the peer could not accept: missing fields, wrong version, bad credentials. */
export class CoreEnvelopeError extends Error {
  constructor(
    readonly errorCode: string,
    message: string,
  ) {
    super(message);
    this.name = 'CoreEnvelopeError';
  }
}

/** Checks a decoded request against the CORE field list; used by the simulator (and the tests). */
export function validateCoreRequest(fields: Partial<Record<string, string>>): CoreRequest {
  for (const f of CORE_REQUEST_FIELDS) {
    if (!fields[f] || fields[f].trim() === '') throw new CoreEnvelopeError('PayloadRequired', `missing ${f}`);
  }
  const req = fields as CoreRequest;
  if (req.CORERuleVersion !== CORE_RULE_VERSION) throw new CoreEnvelopeError('VersionMismatch', `CORERuleVersion must be ${CORE_RULE_VERSION}`);
  if (req.ProcessingMode !== PROCESSING_MODE) throw new CoreEnvelopeError('ProcessingModeNotSupported', `ProcessingMode must be ${PROCESSING_MODE}`);
  if (req.PayloadType !== PAYLOAD_270) throw new CoreEnvelopeError('PayloadTypeNotSupported', `PayloadType ${req.PayloadType} is not supported`);
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(req.PayloadID)) {
    throw new CoreEnvelopeError('PayloadIDInvalid', 'PayloadID must be a UUID');
  }
  if (Number.isNaN(Date.parse(req.TimeStamp))) throw new CoreEnvelopeError('TimeStampInvalid', 'TimeStamp must be an ISO 8601 date-time');
  return req;
}

/**
 * CORE HTTP MIME multipart/form-data codec: the envelope fields as form parts, plus UserName and
 * Password on requests and ErrorCode/ErrorMessage on responses.
 *
 * Every field, Payload included, is a plain form field (`Content-Disposition: form-data; name="Payload"`,
 * no filename): so the CORE Connectivity Rule's real-time MIME example writes it, and some receivers
 * read only plain fields (docs/going-live.md, CORE). The body is written here rather than through
 * FormData, which would rewrite bare line feeds in text fields as CRLF: the X12 travels byte for byte.
 * Decoding goes through the platform's Response (RFC 7578), which reads plain and file parts alike.
 */
import { randomBytes } from 'node:crypto';
import { CORE_REQUEST_FIELDS, type CoreRequest, type CoreResponse, type Credentials } from './fields.ts';

const RESPONSE_FIELDS = [...CORE_REQUEST_FIELDS, 'ErrorCode', 'ErrorMessage'] as const;

/** A boundary that occurs in no value (RFC 2046: at most 70 characters). */
function boundaryFor(values: string[]): string {
  for (;;) {
    const b = `----CORE${randomBytes(18).toString('hex')}`;
    if (!values.some((v) => v.includes(b))) return b;
  }
}

export function encodeForm(entries: [string, string][]): { body: Buffer; contentType: string } {
  const boundary = boundaryFor(entries.map(([, v]) => v));
  const parts = entries.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  return { body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`, 'utf8'), contentType: `multipart/form-data; boundary=${boundary}` };
}

export function encodeMimeRequest(req: CoreRequest, credentials: Credentials | null) {
  const entries: [string, string][] = CORE_REQUEST_FIELDS.map((f) => [f, req[f]]);
  if (credentials) entries.push(['UserName', credentials.username], ['Password', credentials.password]);
  return Promise.resolve(encodeForm(entries));
}

export function encodeMimeResponse(res: CoreResponse) {
  return Promise.resolve(encodeForm(RESPONSE_FIELDS.map((f) => [f, res[f]])));
}

/** Reads a multipart/form-data body into its text fields; throws when it is not one. */
export async function decodeMime(body: Buffer, contentType: string): Promise<Partial<Record<string, string>>> {
  if (!/^multipart\/form-data\s*;/i.test(contentType)) throw new Error(`expected multipart/form-data, got ${contentType.split(';')[0] || 'no content type'}`);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new Error('malformed multipart/form-data body');
  }
  const fields: Record<string, string> = {};
  for (const [k, v] of form.entries()) fields[k] = typeof v === 'string' ? v : await v.text();
  return fields;
}

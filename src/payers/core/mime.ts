/**
 * CORE HTTP MIME multipart/form-data codec: the envelope fields as form parts, plus UserName and
 * Password on requests and ErrorCode/ErrorMessage on responses. Encoded and decoded with the
 * platform's FormData and Response, so boundaries and part headers follow RFC 7578.
 */
import { CORE_REQUEST_FIELDS, type CoreRequest, type CoreResponse, type Credentials } from './fields.ts';

const RESPONSE_FIELDS = [...CORE_REQUEST_FIELDS, 'ErrorCode', 'ErrorMessage'] as const;

async function encodeForm(entries: [string, string][]): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  // Text parts get their line breaks normalized to CRLF; the X12 payload travels as a binary part, byte for byte.
  for (const [k, v] of entries) {
    if (k === 'Payload') form.append(k, new Blob([v], { type: 'application/edi-x12' }), 'payload.x12');
    else form.append(k, v);
  }
  const res = new Response(form);
  return { body: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type')! };
}

export function encodeMimeRequest(req: CoreRequest, credentials: Credentials | null) {
  const entries: [string, string][] = CORE_REQUEST_FIELDS.map((f) => [f, req[f]]);
  if (credentials) entries.push(['UserName', credentials.username], ['Password', credentials.password]);
  return encodeForm(entries);
}

export function encodeMimeResponse(res: CoreResponse) {
  return encodeForm(RESPONSE_FIELDS.map((f) => [f, res[f]]));
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

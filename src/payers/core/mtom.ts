/**
 * SOAP answers sent as MTOM/XOP (multipart/related; type="application/xop+xml"): the root part holds
 * the SOAP envelope, and an element may stand for another part's bytes through
 * `<xop:Include href="cid:..."/>` (W3C XOP 1.0, RFC 2387). Some CORE endpoints (TriZetto is reported
 * to) answer so, with the X12 Payload in a part of its own. unpackMtom returns the envelope with every
 * Include replaced by the text of the part it names, for decodeSoap to read.
 * The body arrives capped in size (transport.ts); parts and header blocks are capped here too.
 */
import { cdata } from './soap.ts';

export const MAX_MTOM_PARTS = 32;
const MAX_HEADER_BYTES = 16 * 1024;

/** A MIME parameter of a Content-Type (quoted or not), or null. */
function param(contentType: string, name: string): string | null {
  const m = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(contentType);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

const stripAngles = (id: string) => id.trim().replace(/^<(.*)>$/, '$1');

interface Part {
  headers: Record<string, string>;
  body: Buffer;
}

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function partBody(raw: string, encoding: string | undefined): Buffer {
  const e = (encoding ?? 'binary').trim().toLowerCase();
  if (e === 'base64') return Buffer.from(raw.replace(/[\r\n\s]/g, ''), 'base64');
  if (e === 'binary' || e === '8bit' || e === '7bit') return Buffer.from(raw, 'latin1');
  throw new Error(`unsupported Content-Transfer-Encoding ${e.slice(0, 20)}`);
}

/** The parts of a multipart body; throws when it is not one or goes past the caps. */
export function multipartParts(body: Buffer, contentType: string): Part[] {
  const boundary = param(contentType, 'boundary');
  if (!boundary) throw new Error('multipart answer without a boundary');
  // latin1 maps each byte to one character, so offsets are byte offsets and nothing is lost.
  const text = `\r\n${body.toString('latin1')}`;
  const delimiter = `\n--${boundary}`;
  const parts: Part[] = [];
  let at = text.indexOf(delimiter);
  if (at < 0) throw new Error('multipart answer without its boundary');
  for (;;) {
    const start = at + delimiter.length;
    if (text.startsWith('--', start)) break;
    const next = text.indexOf(delimiter, start);
    if (next < 0) throw new Error('multipart answer without its closing boundary');
    if (parts.length >= MAX_MTOM_PARTS) throw new Error(`multipart answer with more than ${MAX_MTOM_PARTS} parts`);
    const chunk = text.slice(text.indexOf('\n', start) + 1, text[next - 1] === '\r' ? next - 1 : next);
    const split = /\r?\n\r?\n/.exec(chunk);
    const headerEnd = split ? split.index : chunk.length;
    if (headerEnd > MAX_HEADER_BYTES) throw new Error('multipart part headers too large');
    const headers = parseHeaders(chunk.slice(0, headerEnd));
    const raw = split ? chunk.slice(headerEnd + split[0].length) : '';
    parts.push({ headers, body: partBody(raw, headers['content-transfer-encoding']) });
    at = next;
  }
  if (parts.length === 0) throw new Error('multipart answer without parts');
  return parts;
}

const INCLUDE = /<([A-Za-z_][\w.-]*:)?Include\b([^>]*?)(?:\/>|>\s*<\/\1?Include\s*>)/g;

/** The SOAP envelope of an MTOM/XOP answer, every xop:Include replaced by the (escaped) text of its part. */
export function unpackMtom(body: Buffer, contentType: string): string {
  const parts = multipartParts(body, contentType);
  const start = param(contentType, 'start');
  const byId = new Map<string, Part>();
  for (const p of parts) if (p.headers['content-id']) byId.set(stripAngles(p.headers['content-id']), p);
  const root = (start ? byId.get(stripAngles(start)) : undefined) ?? parts[0]!;
  return root.body.toString('utf8').replace(INCLUDE, (_all: string, _prefix: string | undefined, attrs: string) => {
    const href = /\bhref\s*=\s*["']cid:([^"']*)["']/i.exec(attrs)?.[1];
    if (href === undefined) return _all;
    let id: string;
    try {
      id = decodeURIComponent(href);
    } catch {
      id = href;
    }
    const part = byId.get(id);
    if (!part || part === root) throw new Error('XOP Include names no part of the answer');
    return cdata(part.body.toString('utf8'));
  });
}

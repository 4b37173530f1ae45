/**
 * A narrow reader for the one SOAP message every CORE exchange gets back: a COREEnvelopeRealTimeResponse
 * written plainly (an optional XML declaration, Envelope, an empty Header, Body, the response element,
 * and its fields as text or CDATA). It reads what fast-xml-parser would read from such a document,
 * without building a DOM or running the validator's separate pass; anything outside that shape
 * (comments, a DOCTYPE, entities other than the five predefined ones, a repeated or unknown field,
 * nested elements, text between elements, a repeated attribute, a SOAP fault) answers null, and
 * decodeSoap reads it with fast-xml-parser as before: malformed or hostile XML is refused there,
 * exactly as without this reader. test/production/soap-response.test.ts checks both agree on
 * generated envelopes, malformed ones included.
 */

export const CORE_RESPONSE_FIELDS = [
  'PayloadType',
  'ProcessingMode',
  'PayloadID',
  'TimeStamp',
  'SenderID',
  'ReceiverID',
  'CORERuleVersion',
  'Payload',
  'ErrorCode',
  'ErrorMessage',
] as const;

/** Each field's place in CORE_RESPONSE_FIELDS. */
const FIELD_INDEX: ReadonlyMap<string, number> = new Map(CORE_RESPONSE_FIELDS.map((f, i) => [f, i]));

// XML whitespace only: anything else between elements goes to the full parser.
const WS = /[ \t\n\r]*/y;
const DECLARATION = /<\?xml(?:[ \t\n]+[A-Za-z]+[ \t\n]*=[ \t\n]*(?:"[^"<>&?]*"|'[^'<>&?]*'))*[ \t\n]*\?>/y;
const NAME = '[A-Za-z_][A-Za-z0-9_.-]*';
/** An open tag: prefix, local name, attributes, and "/" when it closes itself. */
const OPEN = new RegExp(`<(?:(${NAME}):)?(${NAME})((?:[ \\t\\n]+${NAME}(?::${NAME})?[ \\t\\n]*=[ \\t\\n]*(?:"[^"<>&]*"|'[^'<>&]*'))*)[ \\t\\n]*(/?)>`, 'y');
/** One attribute of an open tag's attribute list (as OPEN matched it), its name captured: read pair by pair, never inside a value. */
const ATTRIBUTE = new RegExp(`[ \\t\\n]+(${NAME}(?::${NAME})?)[ \\t\\n]*=[ \\t\\n]*(?:"[^"<>&]*"|'[^'<>&]*')`, 'y');
const ENTITY = /&(lt|gt|amp|apos|quot);/g;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };
const CDATA_OPEN = '<![CDATA[';

interface Tag {
  /** Where the qualified name (prefix:local) is written in the document, and its length: its closing tag is compared with it there. */
  nameAt: number;
  nameLength: number;
  local: string;
  selfClosing: boolean;
}

class Reader {
  readonly xml: string;
  at: number;
  constructor(xml: string) {
    this.xml = xml;
    this.at = 0;
  }

  skipSpace(): void {
    WS.lastIndex = this.at;
    WS.exec(this.xml);
    this.at = WS.lastIndex;
  }

  /** The open tag here, or null when what is here is not one this reader takes. */
  open(): Tag | null {
    OPEN.lastIndex = this.at;
    const m = OPEN.exec(this.xml);
    if (!m) return null;
    const [, prefix, local, attributes, slash] = m;
    if (prefix === 'xmlns' || local === 'xmlns') return null;
    if (attributes && !distinctAttributes(attributes)) return null;
    const nameAt = this.at + 1;
    this.at = OPEN.lastIndex;
    return { nameAt, nameLength: (prefix ? prefix.length + 1 : 0) + local!.length, local: local!, selfClosing: slash === '/' };
  }

  /** `</qname>` here: compared with the open tag's name where it is written (no closing tag string made). */
  close(tag: Tag): boolean {
    const xml = this.xml;
    const at = this.at;
    const n = tag.nameLength;
    if (xml.charCodeAt(at) !== 60 || xml.charCodeAt(at + 1) !== 47 || xml.charCodeAt(at + 2 + n) !== 62) return false;
    for (let i = 0; i < n; i++) if (xml.charCodeAt(at + 2 + i) !== xml.charCodeAt(tag.nameAt + i)) return false;
    this.at = at + 3 + n;
    return true;
  }

  /** An element with nothing but whitespace in it (or self-closed). */
  empty(tag: Tag): boolean {
    if (tag.selfClosing) return true;
    this.skipSpace();
    return this.close(tag);
  }

  /** A field's value: text (trimmed, the five predefined entities read) or adjacent CDATA sections (as they are). */
  value(tag: Tag): string | null {
    if (tag.selfClosing) return '';
    const xml = this.xml;
    if (xml.startsWith(CDATA_OPEN, this.at)) {
      let value = '';
      while (xml.startsWith(CDATA_OPEN, this.at)) {
        const end = xml.indexOf(']]>', this.at + CDATA_OPEN.length);
        if (end < 0) return null;
        value += xml.slice(this.at + CDATA_OPEN.length, end);
        this.at = end + 3;
      }
      return this.close(tag) ? value : null;
    }
    const end = xml.indexOf('<', this.at);
    if (end < 0) return null;
    const raw = xml.slice(this.at, end).trim();
    this.at = end;
    if (!this.close(tag)) return null;
    if (!raw.includes('&')) return raw;
    const decoded = raw.replace(ENTITY, (_, name: string) => ENTITIES[name]!);
    // Any other ampersand (a bare one, a character reference, a DOCTYPE entity) is the full parser's.
    return raw.replace(ENTITY, '').includes('&') ? null : decoded;
  }
}

function distinctAttributes(attributes: string): boolean {
  const seen = new Set<string>();
  ATTRIBUTE.lastIndex = 0;
  for (let m = ATTRIBUTE.exec(attributes); m !== null; m = ATTRIBUTE.exec(attributes)) {
    if (seen.has(m[1]!)) return false;
    seen.add(m[1]!);
  }
  return true;
}

/** The fields of a plainly written COREEnvelopeRealTimeResponse, or null for anything else (decodeSoap's full reading). */
export function readCoreResponse(input: string): Partial<Record<string, string>> | null {
  // fast-xml-parser reads every line break as a line feed before anything else.
  const r = new Reader(input.includes('\r') ? input.replace(/\r\n?/g, '\n') : input);
  if (r.xml.startsWith('<?')) {
    DECLARATION.lastIndex = 0;
    if (!DECLARATION.exec(r.xml)) return null;
    r.at = DECLARATION.lastIndex;
  }
  r.skipSpace();
  const envelope = r.open();
  if (!envelope || envelope.local !== 'Envelope' || envelope.selfClosing) return null;
  r.skipSpace();
  let body = r.open();
  if (body?.local === 'Header') {
    if (!r.empty(body)) return null;
    r.skipSpace();
    body = r.open();
  }
  if (!body || body.local !== 'Body' || body.selfClosing) return null;
  r.skipSpace();
  const response = r.open();
  if (!response || response.local !== 'COREEnvelopeRealTimeResponse' || response.selfClosing) return null;
  // Values by field index, and the fields in the order they came: the object is made at the end with
  // the constant (internalized) names, not keyed by each tag's freshly matched name.
  const values: (string | undefined)[] = [];
  const order: number[] = [];
  for (;;) {
    r.skipSpace();
    if (r.close(response)) break;
    const field = r.open();
    const index = field ? FIELD_INDEX.get(field.local) : undefined;
    if (index === undefined || values[index] !== undefined) return null;
    const value = r.value(field!);
    if (value === null) return null;
    values[index] = value;
    order.push(index);
  }
  if (order.length === 0) return null;
  r.skipSpace();
  if (!r.close(body)) return null;
  r.skipSpace();
  if (!r.close(envelope)) return null;
  r.skipSpace();
  if (r.at !== r.xml.length) return null;
  const fields: Partial<Record<string, string>> = {};
  for (const i of order) fields[CORE_RESPONSE_FIELDS[i]!] = values[i];
  return fields;
}

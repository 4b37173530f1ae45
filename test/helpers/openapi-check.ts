/**
 * Checks a response the suite received against the served OpenAPI document: the schema of its
 * route, status and content type. test/helpers/server.ts runs it on every post/get, and
 * checkingFetch on every answer of the e2e suite (test/e2e/api.ts), the client and CLI tests, so the
 * document cannot drift from what the server does. Paths the document does not describe (probes,
 * docs, unknown paths) are not checked; a documented operation answering with a status, or a content
 * type for that status, the document does not list fails, and a CSV answer is checked against the
 * text/csv schema, a FHIR one against application/fhir+json's.
 */
import { AssertionError } from 'node:assert';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { isIsoDate, isNpi } from '../../src/domain/formats.ts';
import { isX12Name } from '../../src/domain/names.ts';

const DOC_ID = 'https://coverage.invalid/openapi.json';

interface DocOperation {
  responses?: Record<string, { content?: Record<string, unknown> }>;
}
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, DocOperation>>;
  components?: { schemas?: Record<string, unknown> };
}

const escapePointer = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

export class OpenApiChecker {
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly routes: { pattern: RegExp; path: string }[];

  constructor(readonly document: OpenApiDocument) {
    // strict: false because the document carries OpenAPI keywords (example, xml...) next to JSON Schema.
    this.ajv = new Ajv2020({ strict: false, allErrors: true, formats: { date: isIsoDate, npi: isNpi, 'person-name': isX12Name } });
    this.ajv.addSchema({ ...document, $id: DOC_ID });
    this.routes = Object.keys(document.paths).map((path) => ({
      path,
      pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
  }

  /** The documented path a request path falls under; a trailing slash is the same route. */
  documentedPath(path: string): string | null {
    const bare = path.split('?')[0]!;
    const candidates = bare.length > 1 && bare.endsWith('/') ? [bare, bare.slice(0, -1)] : [bare];
    for (const candidate of candidates) {
      const route = this.routes.find((r) => r.pattern.test(candidate));
      if (route) return route.path;
    }
    return null;
  }

  /**
   * The validator of a documented response, or why there is none. The response is found by status,
   * then by the media type the answer came as: only a media type the document lists for that status
   * is checked, against that media type's schema (a CSV answer against text/csv's, FHIR against
   * application/fhir+json's). `mediaType` undefined means the caller vouches for a JSON value
   * (application/json); null means the answer had no content-type.
   */
  validatorFor(
    method: string,
    path: string,
    status: number,
    mediaType?: string | null,
  ): ValidateFunction | 'not documented' | 'status not documented' | { undocumentedType: string | null; documented: string[] } {
    const docPath = this.documentedPath(path);
    const operation = docPath ? this.document.paths[docPath]?.[method.toLowerCase()] : undefined;
    if (!docPath || !operation) return 'not documented';
    const response = operation.responses?.[String(status)];
    if (!response) return 'status not documented';
    const type = mediaType === undefined ? 'application/json' : normalizeMediaType(mediaType);
    const documented = Object.keys(response.content ?? {});
    if (type === null || !documented.includes(type)) return { undocumentedType: type, documented };
    const pointer = ['paths', docPath, method.toLowerCase(), 'responses', String(status), 'content', type, 'schema'].map(escapePointer).join('/');
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOC_ID}#/${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  /** The validator of a documented JSON request body. */
  requestValidatorFor(method: string, path: string): ValidateFunction | null {
    const docPath = this.documentedPath(path);
    if (!docPath || !this.document.paths[docPath]?.[method.toLowerCase()]) return null;
    const pointer = ['paths', docPath, method.toLowerCase(), 'requestBody', 'content', 'application/json', 'schema'].map(escapePointer).join('/');
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOC_ID}#/${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  /**
   * Throws an AssertionError when a documented operation's response does not match the document: a
   * status it does not list, a media type it does not list for that status, or a body its schema for
   * that media type refuses. `body` is the parsed JSON for a JSON media type, else the text.
   */
  check(method: string, path: string, status: number, body: unknown, mediaType?: string | null): void {
    const validate = this.validatorFor(method, path, status, mediaType);
    const where = `${method} ${path.split('?')[0]} -> ${status}`;
    if (validate === 'not documented') return;
    if (validate === 'status not documented') {
      throw new AssertionError({ message: `${where}: the OpenAPI document does not list status ${status} for this operation`, actual: body });
    }
    if (typeof validate !== 'function') {
      // A documented response without content, answered without a body, is what the document says.
      if (validate.documented.length === 0 && (body === '' || body === undefined)) return;
      const listed = validate.documented.length ? validate.documented.join(', ') : 'no content';
      throw new AssertionError({
        message: `${where}: answered as ${validate.undocumentedType ?? 'no content-type'}, but the OpenAPI document lists ${listed} for this status`,
        actual: body,
      });
    }
    if (!validate(body)) {
      const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(body)'} ${e.message ?? ''}`.trim());
      throw new AssertionError({ message: `${where}: response does not match the OpenAPI document: ${errors.join('; ')}`, actual: body });
    }
  }
}

/** `application/json; charset=utf-8` as `application/json`; null for a missing or empty header. */
export function normalizeMediaType(header: string | null | undefined): string | null {
  const type = (header ?? '').split(';')[0]!.trim().toLowerCase();
  return type === '' ? null : type;
}

/** Whether a media type's body is JSON (application/json, application/fhir+json, application/problem+json...). */
export function isJsonMediaType(type: string | null): boolean {
  return type !== null && (type === 'application/json' || /^application\/[^;]+\+json$/.test(type));
}

/**
 * What the checker is given for an answer: its media type, and its body parsed when that media type
 * is JSON (a JSON media type whose text is no JSON is checked as the text, and fails its schema).
 */
export function checkedBody(text: string, contentType: string | null | undefined): { mediaType: string | null; body: unknown } {
  const mediaType = normalizeMediaType(contentType);
  if (!isJsonMediaType(mediaType)) return { mediaType, body: text };
  try {
    return { mediaType, body: JSON.parse(text) as unknown };
  } catch {
    return { mediaType, body: text };
  }
}

const checkers = new Map<string, OpenApiChecker>();

/** The checker for a document; servers of one test file serve the same document, so it is compiled once. */
export function checkerForDocument(document: OpenApiDocument): OpenApiChecker {
  const text = JSON.stringify(document);
  let checker = checkers.get(text);
  if (!checker) {
    checker = new OpenApiChecker(JSON.parse(text) as OpenApiDocument);
    checkers.set(text, checker);
  }
  return checker;
}

/** Fetches GET /openapi.json from a running server and returns its checker. */
export async function checkerForServer(baseUrl: string): Promise<OpenApiChecker> {
  const res = await fetch(`${baseUrl}/openapi.json`);
  if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}`);
  return checkerForDocument((await res.json()) as OpenApiDocument);
}

/** A fetch that checks every answer against the server's document by status and content type: for the e2e, client and CLI tests. */
export function checkingFetch(checker: OpenApiChecker, baseUrl: string): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    if (url.origin === new URL(baseUrl).origin) {
      const { mediaType, body } = checkedBody(await res.clone().text(), res.headers.get('content-type'));
      checker.check(init?.method ?? (input instanceof Request ? input.method : 'GET'), url.pathname, res.status, body, mediaType);
    }
    return res;
  };
}

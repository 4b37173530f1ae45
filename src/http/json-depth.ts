/**
 * JSON bodies are refused past a nesting depth before they are parsed (docs/security.md, input
 * limits): 64 KiB of `[[[[…` cost JSON.parse and the validators 85 to 558 ms of the event loop
 * (issue 39). One linear pass over the text, brackets inside strings not counted, then the parser.
 */
import type { FastifyBodyParser, FastifyRequest } from 'fastify';
import { HttpErrors } from './errors.ts';

/**
 * Arrays and objects inside one another a body may hold. Our request schemas nest 5 deep at most
 * (a bulk monitor upload); the FHIR door's open schemas take what FHIR allows, and its deepest
 * example, a Bundle of requests with contained resources, nests 9. 32 leaves room for nested
 * extensions; test/security/json-depth.test.ts keeps it at least twice the deepest of these.
 */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/** Whether the text opens more than max arrays and objects inside one another. Malformed text is left to the parser. */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // To the closing quote: the first one after an even run of backslashes. Each character is passed at most twice.
      for (;;) {
        const end = text.indexOf('"', i + 1);
        if (end < 0) return false;
        let escapes = 0;
        while (text.charCodeAt(end - 1 - escapes) === BACKSLASH) escapes++;
        i = end;
        if (escapes % 2 === 0) break;
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}

type JsonParser = (request: FastifyRequest, body: string, done: (err: Error | null, body?: unknown) => void) => void;

/** Fastify's JSON parser (getDefaultJsonParser, which answers through done), refusing first a body nested deeper than MAX_JSON_DEPTH. */
export function depthLimited(parser: FastifyBodyParser<string>): JsonParser {
  const parse = parser as JsonParser;
  return (request, body, done) => {
    if (nestsDeeperThan(body, MAX_JSON_DEPTH)) return done(HttpErrors.nestedTooDeep(MAX_JSON_DEPTH), undefined);
    parse(request, body, done);
  };
}

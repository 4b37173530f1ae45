/**
 * The response check (test/helpers/openapi-check.ts) selects the documented response by status and
 * content type: an answer is held against the schema of the media type it came as, and a media type
 * the document does not list for that status fails, even when the body would match another one's
 * schema. On a small document of its own, and through checkingFetch (what test/e2e/api.ts calls) on a
 * loopback server that answers with the wrong content type.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { checkedBody, checkerForDocument, checkerForServer, checkingFetch, type OpenApiDocument } from '../helpers/openapi-check.ts';

const ERROR = { type: 'object', required: ['error_code', 'message'], properties: { error_code: { type: 'string' }, message: { type: 'string' } } };
const DOCUMENT: OpenApiDocument = {
  openapi: '3.1.0',
  paths: {
    '/v1/results/{id}': {
      get: {
        responses: {
          '200': {
            content: {
              'application/json': { schema: { type: 'object', required: ['results'], properties: { results: { type: 'array' } } } },
              'text/csv': { schema: { type: 'string', pattern: '^row,status\\r?\\n' } },
            },
          },
          '404': { content: { 'application/json': { schema: ERROR } } },
        },
      },
    },
    '/v1/fhir': {
      get: {
        responses: {
          '200': {
            content: {
              'application/fhir+json': { schema: { type: 'object', required: ['resourceType'], properties: { resourceType: { const: 'Bundle' } } } },
              'application/json': { schema: { type: 'object', required: ['resourceType'] } },
            },
          },
        },
      },
    },
  },
};
const checker = checkerForDocument(DOCUMENT);
const rejects = (fn: () => void, pattern: RegExp) => assert.throws(fn, (err: Error) => err.name === 'AssertionError' && pattern.test(err.message));

test('each answer is held against the schema of the content type it came as', () => {
  checker.check('GET', '/v1/results/1', 200, { results: [] }, 'application/json');
  checker.check('GET', '/v1/results/1', 200, 'row,status\n1,200\n', 'text/csv');
  // The CSV schema checks the CSV: a text without its header line fails, as does JSON sent as CSV.
  rejects(() => checker.check('GET', '/v1/results/1', 200, 'no header\n', 'text/csv'), /pattern/);
  rejects(() => checker.check('GET', '/v1/results/1', 200, { results: [] }, 'text/csv'), /must be string/);
  // CSV text labelled JSON is checked as JSON, and fails.
  rejects(() => checker.check('GET', '/v1/results/1', 200, 'row,status\n1,200\n', 'application/json'), /must be object/);
  checker.check('GET', '/v1/fhir', 200, { resourceType: 'Bundle' }, 'application/fhir+json');
  rejects(() => checker.check('GET', '/v1/fhir', 200, { resourceType: 'Patient' }, 'application/fhir+json'), /resourceType/);
  checker.check('GET', '/v1/fhir', 200, { resourceType: 'Patient' }, 'application/json');
});

test('a content type the document does not list for that status fails, whatever the body', () => {
  // A problem+json error where the document lists application/json only: the body would match, the type does not.
  rejects(
    () => checker.check('GET', '/v1/results/1', 404, { error_code: 'NOT_FOUND', message: 'no such batch' }, 'application/problem+json'),
    /answered as application\/problem\+json, but the OpenAPI document lists application\/json for this status/,
  );
  // text/csv is documented for 200, not for 404.
  rejects(() => checker.check('GET', '/v1/results/1', 404, 'row,status\n', 'text/csv'), /answered as text\/csv/);
  rejects(() => checker.check('GET', '/v1/results/1', 200, '<html></html>', 'text/html'), /answered as text\/html/);
  rejects(() => checker.check('GET', '/v1/results/1', 200, '', null), /answered as no content-type/);
  // A caller that names no media type vouches for a JSON value (the document's own examples).
  checker.check('GET', '/v1/results/1', 404, { error_code: 'NOT_FOUND', message: 'no such batch' });
});

test('checkedBody parses JSON media types only, with parameters and case ignored', () => {
  assert.deepEqual(checkedBody('{"a":1}', 'application/json; charset=utf-8'), { mediaType: 'application/json', body: { a: 1 } });
  assert.deepEqual(checkedBody('{"a":1}', 'Application/FHIR+JSON'), { mediaType: 'application/fhir+json', body: { a: 1 } });
  assert.deepEqual(checkedBody('{"a":1}', 'text/csv'), { mediaType: 'text/csv', body: '{"a":1}' });
  assert.deepEqual(checkedBody('not json', 'application/json'), { mediaType: 'application/json', body: 'not json' });
  assert.deepEqual(checkedBody('', null), { mediaType: null, body: '' });
});

/** A loopback server serving DOCUMENT, whose answers come with the content type a test sets. */
let server: Server;
let url: string;
let answer: { status: number; type: string; body: string };
before(async () => {
  server = createServer((req, res) => {
    if (req.url === '/openapi.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(DOCUMENT));
      return;
    }
    res.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

test('checkingFetch (the e2e suite’s calls) checks each answer by its content type', async () => {
  const checked = checkingFetch(await checkerForServer(url), url);
  answer = { status: 200, type: 'text/csv; charset=utf-8', body: 'row,status\n1,200\n' };
  assert.equal((await checked(`${url}/v1/results/1`)).status, 200);
  answer = { status: 404, type: 'application/json; charset=utf-8', body: JSON.stringify({ error_code: 'NOT_FOUND', message: 'gone' }) };
  assert.equal((await checked(`${url}/v1/results/1`)).status, 404);
  answer = { status: 404, type: 'application/problem+json', body: JSON.stringify({ error_code: 'NOT_FOUND', message: 'gone' }) };
  await assert.rejects(checked(`${url}/v1/results/1`), /answered as application\/problem\+json/);
  answer = { status: 200, type: 'application/json', body: 'row,status\n1,200\n' };
  await assert.rejects(checked(`${url}/v1/results/1`), /does not match the OpenAPI document/);
});

/** The check every suite's responses go through (test/helpers/openapi-check.ts) catches a document that drifted. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { exampleResponses } from '../../src/http/openapi/openapi-example-responses.ts';
import { checkerForServer, type OpenApiChecker } from '../helpers/openapi-check.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let checker: OpenApiChecker;
before(async () => {
  server = await startTestServer();
  checker = await checkerForServer(server.url);
});
after(() => server.close());

const estimate = () => structuredClone(exampleResponses()['estimate/active_copay']) as Record<string, unknown>;
const rejects = (fn: () => void, pattern: RegExp) => assert.throws(fn, (err: Error) => err.name === 'AssertionError' && pattern.test(err.message));

test('a response that matches its route and status passes, with or without the trailing slash', () => {
  checker.check('POST', '/v1/estimate', 200, estimate());
  checker.check('POST', '/v1/estimate/', 200, estimate());
  checker.check('POST', '/v1/estimate', 404, exampleResponses()['estimate/member_not_found']);
});

test('a missing field, a wrong type or a value outside an enum fails', () => {
  const missing = estimate();
  delete missing.plan_status;
  rejects(() => checker.check('POST', '/v1/estimate', 200, missing), /plan_status/);
  rejects(() => checker.check('POST', '/v1/estimate', 200, { ...estimate(), copayment: '30.00' }), /copayment/);
  rejects(() => checker.check('POST', '/v1/estimate', 200, { ...estimate(), plan_status: 'MAYBE' }), /plan_status/);
  rejects(() => checker.check('POST', '/v1/estimate', 200, { ...estimate(), plan_begin_date: '2026-02-30' }), /plan_begin_date/);
  rejects(() => checker.check('POST', '/v1/scan', 400, { message: 'no code' }), /error_code/);
});

test('a status the operation does not document fails', () => {
  rejects(() => checker.check('POST', '/v1/discover', 206, estimate()), /does not list status 206/);
  rejects(() => checker.check('GET', '/v1/sandbox/members', 500, { error_code: 'INTERNAL_ERROR', message: 'x', request_id: 'r' }), /status 500/);
});

test('paths the document does not describe are not checked', () => {
  checker.check('GET', '/healthz', 200, { status: 'ok' });
  checker.check('POST', '/v1/no-such-endpoint', 404, { error_code: 'NOT_FOUND' });
  checker.check('GET', '/v1/estimate', 404, 'not json');
});

test('the suite helper checks what it receives: a documented answer comes back as usual', async () => {
  const res = await server.get('/v1/sandbox/members');
  assert.equal(res.status, 200);
  assert.ok(res.body.members.length > 10);
});

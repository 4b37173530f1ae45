/** GET /openapi.json: a valid OpenAPI 3.1 document, generated from the route schemas, with examples for every outcome. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { ErrorCodes, type ErrorCode } from '../../src/domain/errors.ts';
import { exampleResponses } from '../../src/http/openapi/openapi-example-responses.ts';
import { DOCUMENTED_OPERATIONS, EXAMPLE_CALLS, exampleKey, responseMediaType, type DocumentedOperation } from '../../src/http/openapi/openapi-examples.ts';
import { errorCodeOf, operationRoutes, type OperationRoute } from '../../scripts/openapi-example-calls.ts';
import { checkerForDocument, type OpenApiChecker } from '../helpers/openapi-check.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let doc: any;
let checker: OpenApiChecker;
let routes: ReadonlyMap<string, OperationRoute>;
before(async () => {
  server = await startTestServer();
  const res = await fetch(`${server.url}/openapi.json`);
  assert.equal(res.status, 200);
  doc = await res.json();
  checker = checkerForDocument(doc);
  routes = operationRoutes(doc);
});
after(() => server.close());

const routeOf = (op: DocumentedOperation): OperationRoute => {
  const route = routes.get(op);
  assert.ok(route, `no operation ${op} in the document`);
  return route;
};
const operation = (op: DocumentedOperation) => {
  const { method, path } = routeOf(op);
  return doc.paths[path][method.toLowerCase()];
};
const OPERATIONS = DOCUMENTED_OPERATIONS;

test('is served without a key, as OpenAPI 3.1, with the package version and a server to try calls against', () => {
  assert.equal(doc.openapi, '3.1.0');
  assert.match(doc.info.title, /Coverage/);
  assert.match(doc.info.version, /^\d+\.\d+\.\d+/);
  assert.ok(doc.info.description.includes('apikey'));
  assert.deepEqual(
    doc.servers.map((s: { url: string }) => s.url),
    ['/'],
  );
});

test('passes the OpenAPI 3.1 schema validator', async () => {
  const validator = new Validator();
  const result = await validator.validate(doc);
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
  assert.equal(validator.version, '3.1');
});

test('the shared schemas are components, and the routes refer to them instead of copying them', () => {
  const expected = [
    ...[
      'EstimateRequest',
      'DiscoverRequest',
      'ScanRequest',
      'MedicaidRequest',
      'EstimateResponse',
      'DiscoverResponse',
      'ScanResponse',
      'MedicaidResponse',
      'ErrorResponse',
      'PayersResponse',
      'SandboxMembersResponse',
    ],
    ...['BatchCreateRequest', 'BatchCreated', 'BatchErrorResponse', 'BatchProgress', 'BatchResults'],
    ...['MonitorCreateRequest', 'MonitorCreated', 'Monitor', 'MonitorList', 'MonitorCheckResult', 'MonitorsCreateRequest', 'MonitorsCreated'],
    ...['WebhookCreateRequest', 'WebhookCreated', 'Webhook', 'WebhookList', 'DeliveryList', 'DeliveryAnswer'],
    ...['RemittanceAnswer', 'AccuracyReport'],
    ...['GoodFaithEstimateRequest', 'GoodFaithEstimate', 'GoodFaithEstimateList', 'BilledCheckAnswer'],
  ];
  assert.deepEqual(Object.keys(doc.components.schemas).sort(), expected.sort());
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  for (const op of ['estimate', 'discover', 'scan', 'medicaid'] as const) {
    const name = op[0]!.toUpperCase() + op.slice(1);
    assert.deepEqual(operation(op).requestBody.content['application/json'].schema, ref(`${name}Request`));
    assert.deepEqual(operation(op).responses['200'].content['application/json'].schema, ref(`${name}Response`));
    for (const [status, response] of Object.entries<any>(operation(op).responses)) {
      if (Number(status) >= 300) assert.deepEqual(response.content['application/json'].schema, ref('ErrorResponse'), `${op} ${status}`);
    }
  }
  assert.deepEqual(operation('estimate').responses['206'].content['application/json'].schema, ref('EstimateResponse'));
  assert.deepEqual(operation('createBatch').requestBody.content['application/json'].schema, ref('BatchCreateRequest'));
  assert.deepEqual(operation('createBatch').responses['202'].content['application/json'].schema, ref('BatchCreated'));
  assert.deepEqual(operation('createBatch').responses['400'].content['application/json'].schema, ref('BatchErrorResponse'));
  assert.deepEqual(operation('getBatch').responses['200'].content['application/json'].schema, ref('BatchProgress'));
  assert.deepEqual(operation('getBatchResults').responses['200'].content['application/json'].schema, ref('BatchResults'));
  assert.equal(operation('createBatch').requestBody.content['text/csv'].schema.type, 'string', 'the CSV upload');
  assert.match(
    operation('getBatchResults').responses['200'].content['text/csv'].schema.description,
    /^With accept: text\/csv.*row,verdict,next_step,endpoint,status,outcome/,
    'the CSV results',
  );
  assert.equal(doc.paths['/v1/estimate/'], undefined, 'the trailing-slash duplicate stays hidden');
  assert.equal(doc.paths['/healthz'], undefined);
});

test('every /v1 operation requires the apikey header scheme', () => {
  assert.deepEqual(doc.components.securitySchemes.apikey, {
    type: 'apiKey',
    in: 'header',
    name: 'apikey',
    description: doc.components.securitySchemes.apikey.description,
  });
  for (const [path, methods] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(methods)) {
      if (path.startsWith('/v1/')) assert.deepEqual(op.security, [{ apikey: [] }], `${method} ${path}`);
    }
  }
});

describe('descriptions and examples', () => {
  test('the documented operations are the ones with example calls', () => {
    const inDocument = Object.values<any>(doc.paths)
      .flatMap((methods) => Object.values<any>(methods).map((o) => o.operationId))
      .sort();
    assert.deepEqual(inDocument, [...OPERATIONS].sort(), 'add the example calls of a new endpoint to src/http/openapi/openapi-examples.ts');
  });

  for (const op of OPERATIONS) {
    test(`${op}: a description, tags, and examples for the request and for every response status`, () => {
      const o = operation(op);
      assert.equal(o.operationId, op);
      assert.ok(o.description.length > 40, 'a real description');
      assert.ok(o.tags.length > 0);
      assert.ok(
        doc.tags.some((t: { name: string }) => o.tags.includes(t.name)),
        'a described tag',
      );
      // JSON, or what the route reads instead (an 835 as application/edi-x12).
      if (o.requestBody) assert.ok(Object.values<any>(o.requestBody.content).some((media) => Object.keys(media.examples).length > 0));
      for (const [status, response] of Object.entries<any>(o.responses)) {
        assert.ok(response.description && response.description !== 'Default Response', `${op} ${status} description`);
        const examples = response.content['application/json'].examples ?? {};
        assert.ok(Object.keys(examples).length > 0, `${op} ${status} has no example`);
      }
      if (o.responses['429']) assert.ok(o.responses['429'].headers['Retry-After']);
    });
  }

  test('each check and batch endpoint shows an example of every error code it can answer with', () => {
    const notPerRoute = new Set<ErrorCode>(['NOT_FOUND', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE']);
    const perOperation: Record<string, ErrorCode[]> = {
      estimate: (Object.keys(ErrorCodes) as ErrorCode[]).filter((c) => !notPerRoute.has(c)),
      discover: [
        'INVALID_REQUEST',
        'PAYER_NOT_SUPPORTED',
        'PROVIDER_NOT_RECOGNIZED',
        'UNAUTHORIZED',
        'MEMBER_NOT_FOUND',
        'PAYLOAD_TOO_LARGE',
        'UNSUPPORTED_MEDIA_TYPE',
        'TOO_MANY_REQUESTS',
        'PAYER_FAILURE',
      ],
      scan: ['INVALID_REQUEST', 'UNAUTHORIZED', 'MEMBER_NOT_FOUND', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'TOO_MANY_REQUESTS', 'PAYER_FAILURE'],
      medicaid: [
        'INVALID_REQUEST',
        'PAYER_NOT_SUPPORTED',
        'UNAUTHORIZED',
        'MEMBER_NOT_FOUND',
        'PAYLOAD_TOO_LARGE',
        'UNSUPPORTED_MEDIA_TYPE',
        'TOO_MANY_REQUESTS',
        'PAYER_FAILURE',
      ],
      createBatch: ['INVALID_REQUEST', 'UNAUTHORIZED', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'TOO_MANY_REQUESTS'],
      getBatch: ['UNAUTHORIZED', 'NOT_FOUND'],
      getBatchResults: ['UNAUTHORIZED', 'NOT_FOUND'],
      cancelBatch: ['UNAUTHORIZED', 'NOT_FOUND'],
      fhirSubmit: ['INVALID_REQUEST', 'UNAUTHORIZED', 'MEMBER_NOT_FOUND', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'TOO_MANY_REQUESTS', 'PAYER_FAILURE'],
    };
    for (const [op, codes] of Object.entries(perOperation)) {
      const shown = new Set(
        Object.values<any>(operation(op as DocumentedOperation).responses).flatMap((r) =>
          Object.values<any>(r.content['application/json'].examples).map((e) => errorCodeOf(e.value)),
        ),
      );
      for (const code of codes) assert.ok(shown.has(code), `${op} has no example of ${code}`);
    }
  });

  test('every example call has a recorded answer with the status and code it declares', () => {
    for (const call of EXAMPLE_CALLS) {
      const recorded = exampleResponses()[exampleKey(call)];
      assert.ok(recorded, `${exampleKey(call)} is not recorded: run scripts/record-openapi-examples.ts`);
      assert.equal(errorCodeOf(recorded), call.error_code, exampleKey(call));
      const example = operation(call.operation).responses[String(call.status)].content[responseMediaType(call)].examples[call.name];
      assert.ok(example, `${exampleKey(call)} is not in the document under ${call.status} ${responseMediaType(call)}`);
    }
  });

  test('every response example matches its schema, and every valid request example its request schema', () => {
    for (const call of EXAMPLE_CALLS) {
      const { method, path } = routeOf(call.operation);
      const example = operation(call.operation).responses[String(call.status)].content[responseMediaType(call)].examples[call.name];
      if (responseMediaType(call) === 'application/json') checker.check(method, path, call.status, example.value);
      else assert.equal(typeof example.value, 'string', exampleKey(call));
      const requestExample = operation(call.operation).requestBody?.content['application/json']?.examples[call.name];
      const meantToBeInvalid = call.error_code === 'INVALID_REQUEST' || call.send === 'as_text';
      if (requestExample && !meantToBeInvalid) {
        const validate = checker.requestValidatorFor(method, path)!;
        assert.ok(validate(requestExample.value), `${exampleKey(call)} request: ${JSON.stringify(validate.errors)}`);
      }
    }
  });
});

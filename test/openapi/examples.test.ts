/** The document's examples are real: every example call, replayed against the sandbox, answers exactly what was recorded. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { exampleResponses } from '../../src/http/openapi/openapi-example-responses.ts';
import { Value } from 'typebox/value';
import { EXAMPLE_CALLS, ExampleCallSchema, exampleKey } from '../../src/http/openapi/openapi-examples.ts';
import { comparable, sendExampleCall, startExampleServer, type ExampleServer } from '../../scripts/openapi-example-calls.ts';
import { checkerForServer } from '../helpers/openapi-check.ts';

let server: ExampleServer;
before(async () => {
  server = await startExampleServer();
  // Every answer is also held against the served OpenAPI document for its route and status.
  const checker = await checkerForServer(server.url);
  server.check = (method, path, status, body) => checker.check(method, path, status, body);
});
after(() => server.close());

test('the example call files (src/http/openapi/openapi-*examples.json) hold ExampleCalls, each named once per operation', () => {
  for (const call of EXAMPLE_CALLS) assert.deepEqual([...Value.Errors(ExampleCallSchema, call)], [], exampleKey(call));
  const keys = EXAMPLE_CALLS.map(exampleKey);
  assert.equal(new Set(keys).size, keys.length);
});

for (const call of EXAMPLE_CALLS) {
  test(`${exampleKey(call)} -> ${call.status} ${call.error_code ?? ''}`, async () => {
    const answer = await sendExampleCall(server, call);
    assert.equal(answer.status, call.status, JSON.stringify(answer.body));
    assert.deepEqual(
      comparable(answer.body),
      comparable(exampleResponses()[exampleKey(call)]),
      'the sandbox answers differently from the recorded example: re-record with `node --import tsx scripts/record-openapi-examples.ts` and review the diff',
    );
    if (call.status === 429) assert.match(answer.headers.get('retry-after') ?? '', /^\d+$/);
  });
}

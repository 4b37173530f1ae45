/** The document's examples are real: every example call, replayed against the sandbox, answers exactly what was recorded. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { EXAMPLE_RESPONSES } from '../../src/http/openapi-example-responses.ts';
import { EXAMPLE_CALLS, exampleKey } from '../../src/http/openapi-examples.ts';
import { comparable, sendExampleCall, startExampleServer } from '../helpers/example-calls.ts';
import type { TestServer } from '../helpers/server.ts';

let server: TestServer;
before(async () => {
  server = await startExampleServer();
});
after(() => server.close());

for (const call of EXAMPLE_CALLS) {
  test(`${exampleKey(call)} -> ${call.status} ${call.error_code ?? ''}`, async () => {
    const answer = await sendExampleCall(server, call);
    assert.equal(answer.status, call.status, JSON.stringify(answer.body));
    assert.deepEqual(
      comparable(answer.body),
      comparable(EXAMPLE_RESPONSES[exampleKey(call)]),
      'the sandbox answers differently from the recorded example: re-record with `node --import tsx scripts/record-openapi-examples.ts` and review the diff',
    );
    if (call.status === 429) assert.match(answer.headers.get('retry-after') ?? '', /^\d+$/);
  });
}

/**
 * Records the OpenAPI examples: sends every call of src/http/openapi/openapi-examples.ts to an in-process
 * sandbox (a fixed date, and a batch budget one example exceeds) and writes the answers to
 * src/http/openapi/openapi-example-responses.json. A queued batch is waited for until every row has its result.
 * Run after a change to the sandbox or the response shapes: node --import tsx scripts/record-openapi-examples.ts
 */
import { writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { EXAMPLE_RESPONSES_FILE, exampleResponses } from '../src/http/openapi/openapi-example-responses.ts';
import { EXAMPLE_CALLS, exampleKey } from '../src/http/openapi/openapi-examples.ts';
import { comparable, errorCodeOf, sendExampleCall, startExampleServer } from './openapi-example-calls.ts';

const server = await startExampleServer();
const recorded: Record<string, unknown> = {};
const wrong: string[] = [];
try {
  for (const call of EXAMPLE_CALLS) {
    const answer = await sendExampleCall(server, call);
    const code = errorCodeOf(answer.body);
    if (answer.status !== call.status || code !== call.error_code) {
      wrong.push(`${exampleKey(call)}: expected ${call.status} ${call.error_code ?? ''}, got ${answer.status} ${code ?? ''}`);
    }
    // An unchanged answer keeps its recorded request id, so a re-recording diff shows only what changed.
    const previous = exampleResponses()[exampleKey(call)];
    recorded[exampleKey(call)] = previous !== undefined && isDeepStrictEqual(comparable(previous), comparable(answer.body)) ? previous : answer.body;
  }
} finally {
  await server.close();
}
if (wrong.length > 0) {
  process.stderr.write(`Not recorded; these calls do not answer as declared:\n  ${wrong.join('\n  ')}\n`);
  process.exit(1);
}
writeFileSync(EXAMPLE_RESPONSES_FILE, `${JSON.stringify(recorded, null, 2)}\n`);
process.stdout.write(`Recorded ${EXAMPLE_CALLS.length} example answers.\n`);

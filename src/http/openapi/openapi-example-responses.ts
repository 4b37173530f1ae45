/**
 * The answers the OpenAPI examples show, recorded from the sandbox by
 * scripts/record-openapi-examples.ts into openapi-example-responses.json beside this file (data,
 * not source: re-record it, never edit it by hand). Read once, on first use.
 */
import { readFileSync } from 'node:fs';

let responses: Readonly<Record<string, unknown>> | undefined;

export const EXAMPLE_RESPONSES_FILE = new URL('./openapi-example-responses.json', import.meta.url);

/** Recorded answers by example key (`operation/name`). */
export function exampleResponses(): Readonly<Record<string, unknown>> {
  return (responses ??= JSON.parse(readFileSync(EXAMPLE_RESPONSES_FILE, 'utf8')) as Record<string, unknown>);
}

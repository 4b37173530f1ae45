/** `coverage normalize FILE --fhir`: the CoverageEligibilityResponse the FHIR door answers for a 271, valid FHIR R4. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'node:test';
import type { CoverageEligibilityResponse, OperationOutcome } from '@medplum/fhirtypes';
import { runNormalize, type PriceOptions } from '../../src/cli/normalize.ts';
import { SAMPLE, SAMPLES } from '../x12/x12-fixtures.ts';
import { assertConformant } from './conformance.ts';

const path = (name: string) => fileURLToPath(new URL(name, SAMPLES));
const SHARE = 'https://coverage-service.org/fhir/StructureDefinition/session-cost-share';

async function run(file: string, price?: PriceOptions) {
  let stdout = '';
  let stderr = '';
  const code = await runNormalize(file, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) }, price, { fhir: true, today: '2026-06-15' });
  return { code, stdout, stderr };
}

test('a 271 prints a conformant CoverageEligibilityResponse with its benefits as items', async () => {
  const r = await run(path(SAMPLE.subscriber271));
  assert.equal(r.code, 0, r.stderr);
  const response = JSON.parse(r.stdout) as CoverageEligibilityResponse;
  assertConformant(response, 'normalize --fhir');
  assert.equal(response.resourceType, 'CoverageEligibilityResponse');
  assert.equal(response.created, '2026-06-15');
  const ins = response.insurance![0]!;
  assert.equal(ins.inforce, true);
  assert.ok((ins.item ?? []).length > 0, 'the benefits as items');
  for (const item of ins.item ?? []) {
    assert.equal(item.category?.coding?.[0]?.system, 'http://terminology.hl7.org/CodeSystem/ex-benefitcategory');
    assert.ok(['in', 'out'].includes(item.network!.coding![0]!.code!));
  }
  assert.equal(
    response.extension?.find((e) => e.url === SHARE)?.extension?.find((e) => e.url === 'member-obligation'),
    undefined,
    'no price: no share',
  );
});

test('with --session-cost the share of that session is in the extension', async () => {
  const r = await run(path(SAMPLE.subscriber271), { sessionCost: 15000, inNetwork: true, today: '2026-06-15' });
  assert.equal(r.code, 0, r.stderr);
  const response = JSON.parse(r.stdout) as CoverageEligibilityResponse;
  assertConformant(response);
  const share = response.extension?.find((e) => e.url === SHARE);
  assert.deepEqual(share?.extension?.find((e) => e.url === 'session-cost')?.valueMoney, { value: 150, currency: 'USD' });
});

test('a rejection prints the OperationOutcome the door would answer; a 270 is refused', async () => {
  const rejected = await run(path(SAMPLE.error271));
  assert.equal(rejected.code, 0);
  const outcome = JSON.parse(rejected.stdout) as OperationOutcome;
  assertConformant(outcome);
  assert.equal(outcome.issue[0]!.details!.coding![0]!.code, 'PROVIDER_NOT_RECOGNIZED');
  const inquiry = await run(path(SAMPLE.dependent270));
  assert.equal(inquiry.code, 1);
  assert.match(inquiry.stderr, /--fhir reads a 271/);
});

test('the command line takes --fhir', async () => {
  const cwd = fileURLToPath(new URL('../../', import.meta.url));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'normalize', path(SAMPLE.subscriber271), '--fhir', '--today', '2026-06-15'],
    { cwd },
  );
  const response = JSON.parse(stdout) as CoverageEligibilityResponse;
  assert.equal(response.resourceType, 'CoverageEligibilityResponse');
  assert.equal(response.created, '2026-06-15');
});

test("the prior authorization number of the benefit that prices the session (2110C REF*G1) is the response's preAuthRef", async () => {
  const corpusFile = fileURLToPath(new URL('../fixtures/271/prior-auth-reference-g1.271', import.meta.url));
  const r = await run(corpusFile, { sessionCost: 15000, inNetwork: true, today: '2026-06-15' });
  assert.equal(r.code, 0, r.stderr);
  const response = JSON.parse(r.stdout) as CoverageEligibilityResponse;
  assertConformant(response, 'normalize --fhir');
  assert.equal(response.preAuthRef, 'PA20260611');
  const plain = await run(path(SAMPLE.subscriber271));
  assert.equal((JSON.parse(plain.stdout) as CoverageEligibilityResponse).preAuthRef, undefined, 'no REF*G1: no preAuthRef');
});

/**
 * An independent tool reads the served document: openapi-typescript generates `paths` types from
 * GET /openapi.json, and a small program written against them compiles under strict tsc, including
 * assignments both ways between the generated types and the package's own (TypeBox Static) types.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const bin = (path: string) => join(ROOT, 'node_modules', path);

let server: TestServer;
let dir: string;
before(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'coverage-openapi-types-'));
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const PROGRAM = (root: string) => `
import type { paths, components } from './schema.ts';
import type { EstimateRequest, EstimateResponse, ErrorResponse, MedicaidRequest, ScanResponse } from '${root}/src/index.ts';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type Estimate = paths['/v1/estimate']['post'];
type EstimateBody = Json<Estimate['requestBody']>;
type Estimated = Json<Estimate['responses'][200]>;
type Partial206 = Json<Estimate['responses'][206]>;
type NotFound = Json<Estimate['responses'][404]>;

const body: EstimateBody = {
  member_id: '10010MHNA',
  member_first_name: 'Avery',
  member_last_name: 'Walsh',
  member_dob: '1988-03-14',
  provider_session_cost: 15000,
  in_network: true,
};
// @ts-expect-error the estimate needs a member_id
const missing: EstimateBody = { member_first_name: '', member_last_name: '', member_dob: '1988-03-14' };
// @ts-expect-error scan takes no member_id
const scan: Json<paths['/v1/scan']['post']['requestBody']> = { member_first_name: 'A', member_last_name: 'B', member_dob: '2000-01-01', zip: '', member_id: 'X' };
const state: Json<paths['/v1/medicaid']['post']['requestBody']>['patient_state'] = 'NY';
// @ts-expect-error not a state code
const notState: Json<paths['/v1/medicaid']['post']['requestBody']>['patient_state'] = 'XX';

function patientPays(r: Estimated): number | null {
  return r.member_obligation;
}
const status: Estimated['plan_status'] = 'ACTIVE_AT_RISK';
// @ts-expect-error not a plan status
const notStatus: Estimated['plan_status'] = 'MAYBE';
const partial: Partial206['error_code'] = 'UNKNOWN_COSTSHARE';
const error: NotFound = { error_code: 'MEMBER_NOT_FOUND', message: 'No member', request_id: 'r' };
const members: Json<paths['/v1/sandbox/members']['get']['responses'][200]>['members'] = [];
const scanned: components['schemas']['ScanResponse']['payers_checked'] = 7;

// The document and the package describe the same shapes.
const toPackage = (r: Estimated): EstimateResponse => r;
const fromPackage = (r: EstimateResponse): Estimated => r;
const requestBoth = (r: EstimateRequest): EstimateBody => r;
const requestBack = (r: EstimateBody): EstimateRequest => r;
const medicaidBack = (r: Json<paths['/v1/medicaid']['post']['requestBody']>): MedicaidRequest => r;
const scanBack = (r: Json<paths['/v1/scan']['post']['responses'][200]>): ScanResponse => r;
const errorBack = (r: NotFound): ErrorResponse => r;

export { body, missing, scan, state, notState, patientPays, status, notStatus, partial, error, members, scanned };
export { toPackage, fromPackage, requestBoth, requestBack, medicaidBack, scanBack, errorBack };
`;

test('openapi-typescript types from GET /openapi.json compile against an example program', async () => {
  await run(process.execPath, [bin('openapi-typescript/bin/cli.js'), `${server.url}/openapi.json`, '--output', join(dir, 'schema.ts')], { cwd: dir });
  const generated = readFileSync(join(dir, 'schema.ts'), 'utf8');
  assert.match(generated, /"\/v1\/estimate": \{/);

  writeFileSync(join(dir, 'example.ts'), PROGRAM(ROOT));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        allowImportingTsExtensions: true,
        verbatimModuleSyntax: true,
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules/@types')],
      },
      files: ['example.ts'],
    }),
  );
  const result = await run(process.execPath, [bin('typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { cwd: dir }).catch(
    (err: { stdout: string }) => err,
  );
  assert.equal(result.stdout.trim(), '', 'tsc reported errors');
});

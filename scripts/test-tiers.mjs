#!/usr/bin/env node
/**
 * The test suite in three tiers (CONTRIBUTING.md, "Tests in tiers"). `npm test` still runs every file;
 * `npm run test:unit`, `test:integration` and `test:browser` run one tier each:
 *
 *   unit         pure suites: no server, no store, no browser, no child process (under 2 minutes)
 *   integration  everything that starts the service, opens a store, spawns the CLI or packs
 *   browser      the console and the documentation page driven in Chromium (test/console/)
 *
 * A file takes its folder's tier unless FILES names it. `node scripts/test-tiers.mjs check` fails
 * when a test file has no tier (a new folder nobody placed) or FILES names a file that is gone, so
 * every file belongs to exactly one tier; `.ci/run` and test/package/test-tiers.test.ts run it.
 *
 *   node scripts/test-tiers.mjs unit [node --test flags...]   runs the tier
 *   node scripts/test-tiers.mjs list unit                      prints the tier's files
 *   node scripts/test-tiers.mjs check                          checks the assignment
 */
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const TIERS = /** @type {const} */ (['unit', 'integration', 'browser']);

/** Each folder of test/ that holds suites, and its tier. */
export const FOLDERS = {
  x12: 'unit',
  domain: 'unit',
  fhir: 'unit',
  sandbox: 'unit',
  batch: 'integration',
  cli: 'integration',
  client: 'integration',
  connections: 'integration',
  e2e: 'integration',
  http: 'integration',
  monitoring: 'integration',
  openapi: 'integration',
  operations: 'integration',
  package: 'integration',
  privacy: 'integration',
  production: 'integration',
  reliability: 'integration',
  remittance: 'integration',
  gfe: 'integration',
  scale: 'integration',
  security: 'integration',
  store: 'integration',
  console: 'browser',
};

/**
 * Files whose tier is not their folder's: the FHIR suites that start the service or the CLI, pure suites
 * among the integration folders, and the one browser suite outside test/console.
 */
export const FILES = {
  'test/fhir/medplum-bot.test.ts': 'integration',
  'test/fhir/normalize-fhir.test.ts': 'integration',
  'test/fhir/shared.test.ts': 'integration',
  'test/fhir/submit.test.ts': 'integration',
  'test/batch/csv-reader.test.ts': 'unit',
  'test/batch/csv.test.ts': 'unit',
  'test/batch/encounter-columns.test.ts': 'unit',
  'test/batch/results-verdict.test.ts': 'unit',
  'test/connections/availity-reader.test.ts': 'unit',
  'test/connections/encounter-requests.test.ts': 'unit',
  'test/connections/json-dependents.test.ts': 'unit',
  'test/connections/json-procedure.test.ts': 'unit',
  'test/connections/optum-samples.test.ts': 'unit',
  'test/connections/payer-errors.test.ts': 'unit',
  'test/connections/service-types.test.ts': 'unit',
  'test/connections/stedi-text.test.ts': 'unit',
  'test/connections/vendor-review-set.test.ts': 'unit',
  'test/http/error-codes.test.ts': 'unit',
  'test/monitoring/pure.test.ts': 'unit',
  'test/operations/estimate-body.test.ts': 'unit',
  'test/operations/demographic-alert.test.ts': 'unit',
  'test/production/aaa42.test.ts': 'unit',
  'test/production/soap-response.test.ts': 'unit',
  'test/reliability/lease-worker.test.ts': 'unit',
  'test/store/totp.test.ts': 'unit',
  'test/openapi/docs-browser.test.ts': 'browser',
};

/** Every test file `npm test` runs (test/*\/*.test.ts), relative to the root, sorted. */
export function testFiles() {
  const test = join(ROOT, 'test');
  const out = [];
  for (const dir of readdirSync(test).sort()) {
    if (!statSync(join(test, dir)).isDirectory()) continue;
    for (const name of readdirSync(join(test, dir)).sort()) if (name.endsWith('.test.ts')) out.push(`test/${dir}/${name}`);
  }
  return out;
}

/** The tier of each file, and what is wrong with the assignment (empty when every file has exactly one). */
export function assign() {
  const files = testFiles();
  const tiers = new Map();
  const problems = [];
  for (const file of files) {
    const tier = FILES[file] ?? FOLDERS[file.split('/')[1]];
    if (!TIERS.includes(tier)) problems.push(`${file} belongs to no tier: add its folder to FOLDERS (or the file to FILES) in scripts/test-tiers.mjs`);
    else tiers.set(file, tier);
  }
  for (const [file, tier] of Object.entries(FILES)) {
    if (!files.includes(file)) problems.push(`FILES names ${file}, which is not a test file`);
    else if (tier === FOLDERS[file.split('/')[1]]) problems.push(`FILES repeats the folder's tier for ${file}`);
  }
  for (const [folder, tier] of Object.entries(FOLDERS)) {
    if (!TIERS.includes(tier)) problems.push(`folder ${folder} has an unknown tier ${tier}`);
    if (!files.some((f) => f.startsWith(`test/${folder}/`))) problems.push(`FOLDERS names test/${folder}/, which holds no test file`);
  }
  return { tiers, problems };
}

export function filesOf(tier) {
  return [...assign().tiers].filter(([, t]) => t === tier).map(([f]) => f);
}

if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === '') {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'check') {
    const { tiers, problems } = assign();
    if (problems.length > 0) {
      for (const p of problems) console.error(`test-tiers: ${p}`);
      process.exit(1);
    }
    const counts = TIERS.map((t) => `${[...tiers.values()].filter((v) => v === t).length} ${t}`);
    console.log(`test-tiers: ${tiers.size} files, ${counts.join(', ')}`);
  } else if (command === 'list' && TIERS.includes(rest[0])) {
    console.log(filesOf(rest[0]).join('\n'));
  } else if (TIERS.includes(command)) {
    const { problems } = assign();
    if (problems.length > 0) {
      for (const p of problems) console.error(`test-tiers: ${p}`);
      process.exit(1);
    }
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...rest, ...filesOf(command)], { cwd: ROOT, stdio: 'inherit' });
    child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  } else {
    console.error('usage: node scripts/test-tiers.mjs unit|integration|browser [node --test flags] | list TIER | check');
    process.exit(2);
  }
}

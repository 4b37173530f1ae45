/**
 * Import rules for src/ (`npx depcruise src`, part of `npm run lint`). Arrows point down the rooms:
 * cli -> server -> http -> operations / store -> payers -> x12 -> domain; sandbox/ is the scenario
 * catalog, data just above domain; fhir/ maps FHIR resources to and from domain types, beside x12/;
 * formats/ reads and writes the CSV and spreadsheet files of batches and schedules, beside them.
 * A room may import only the rooms named in its rule (CONTRIBUTING.md, "Layout", says what each holds).
 */
const rooms = ['domain', 'x12', 'fhir', 'formats', 'sandbox', 'payers', 'operations', 'store', 'http', 'server', 'client', 'cli'];

/**
 * Rules: files in `room` import nothing of ours outside `room` and `allowed`; `typesOnly` rooms only
 * with `import type`; `except`, a path pattern, names the one file outside them it may import.
 */
function only(room, allowed, why, typesOnly = [], except = undefined) {
  const others = rooms.filter((r) => r !== room && !allowed.includes(r) && !typesOnly.includes(r));
  const rules = [
    {
      name: `${room}-imports-only-${allowed.join('-') || 'itself'}`,
      comment: why,
      severity: 'error',
      from: { path: `^src/${room}/` },
      to: { path: `^src/(${others.join('|')})/`, ...(except ? { pathNot: except } : {}) },
    },
  ];
  if (typesOnly.length > 0) {
    rules.push({
      name: `${room}-imports-only-types-from-${typesOnly.join('-')}`,
      comment: why,
      severity: 'error',
      from: { path: `^src/${room}/` },
      to: { path: `^src/(${typesOnly.join('|')})/`, dependencyTypesNot: ['type-only'] },
    });
  }
  return rules;
}

module.exports = {
  forbidden: [
    ...only('domain', [], 'domain/ is pure: types, schemas, the estimate engine; it imports nothing of ours.'),
    ...only('x12', ['domain'], 'x12/ is pure: it turns X12 into domain types and back.'),
    ...only('fhir', ['domain'], 'fhir/ is pure: it turns FHIR R4 resources into our requests and our answers into FHIR (docs/fhir.md).'),
    ...only('formats', ['domain'], 'formats/ is pure: CSV text and spreadsheet cells into batch and schedule rows, and result rows into CSV.'),
    ...only('sandbox', ['domain'], 'sandbox/ is the scenario catalog, data described with domain types.'),
    ...only(
      'payers',
      ['x12', 'domain', 'sandbox'],
      'payers/ answers a 270 with a 271; its sandbox network and simulator are built from the catalog (sandbox/).',
    ),
    ...only('operations', ['payers', 'x12', 'domain'], 'operations/ decides which payers to ask and how; it does not know HTTP or the store.'),
    ...only('store', ['domain'], 'store/ persists keys, audit, usage and batch jobs.'),
    ...only(
      'http',
      ['operations', 'store', 'formats', 'domain', 'sandbox', 'fhir'],
      'http/ maps requests (JSON, or FHIR through fhir/) to operations; GET /v1/sandbox/members shows the catalog (sandbox/) itself; the PayerNetwork it hands to operations is a type.',
      ['payers'],
    ),
    ...only(
      'server',
      ['http', 'operations', 'store', 'payers', 'domain'],
      'server/ assembles the running service from the configuration: the store, the payer network, the Fastify app, the batch and monitor workers.',
    ),
    ...only('client', [], 'src/client/ re-exports the client package (packages/client/) as coverage-service/client.'),
    ...only(
      'cli',
      ['server', 'operations', 'store', 'payers', 'x12', 'fhir', 'formats', 'domain'],
      "cli/ is the command line: it starts the server through server/ and reaches the API as a client; it does not reach into http/. `coverage check` words its verdicts with the console's own verdict.js, so the terminal and the console say the same.",
      [],
      '^src/http/console/verdict\\.js$',
    ),
    {
      name: 'domain-and-x12-are-pure',
      comment:
        'domain/, x12/, fhir/ and formats/ do no I/O: no Node built-in and no package but TypeBox (schemas); fhir/ takes only types from @medplum/fhirtypes.',
      severity: 'error',
      from: { path: '^src/(domain|x12|fhir|formats)/' },
      to: { dependencyTypes: ['core', 'npm'], dependencyTypesNot: ['type-only'], pathNot: 'node_modules/typebox/' },
    },
    {
      name: 'client-has-no-runtime-dependencies',
      comment: 'coverage-service-client (packages/client/) has no dependencies and loads no server code: at run time it imports only its own files.',
      severity: 'error',
      from: { path: '^packages/client/src/' },
      to: { pathNot: '^packages/client/src/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'client-takes-types-only-from-domain-through-api-types',
      comment:
        'The client takes the schema types from src/domain/ in one file, api-types.ts, whose declarations its build expands (packages/client/scripts/build.mjs).',
      severity: 'error',
      from: { path: '^packages/client/src/' },
      to: { path: '^src/', pathNot: '^src/domain/' },
    },
    {
      name: 'client-reaches-domain-only-in-api-types',
      comment: 'Only packages/client/src/api-types.ts may name src/domain/: the published declarations are rebuilt from it alone.',
      severity: 'error',
      from: { path: '^packages/client/src/', pathNot: '^packages/client/src/api-types\\.ts$' },
      to: { path: '^src/' },
    },
    {
      name: 'package-entry-imports-only-server-and-client',
      comment: 'src/index.ts exports the server API (server/: startRuntime, loadConfig) and the client (client/), nothing else of ours.',
      severity: 'error',
      from: { path: '^src/index\\.ts$' },
      to: { path: '^src/', pathNot: '^src/(server|client)/' },
    },
    {
      name: 'every-folder-is-a-room',
      comment: 'A new folder of src/ gets a room rule above, and a paragraph in CONTRIBUTING.md ("Layout").',
      severity: 'error',
      from: { path: '^src/', pathNot: `^src/(${rooms.join('|')})/|^src/index\\.ts$` },
      to: {},
    },
    {
      name: 'x12-reader-enters-the-benefits-room-by-its-door',
      comment:
        'The 271 reader (normalize-271.ts and its stages, eligibility-stages.ts) yields the table of benefit rows; the benefits room (x12/benefits/) prices the encounter, entered through benefits/index.ts only.',
      severity: 'error',
      from: { path: '^src/x12/(normalize-271|eligibility-stages)\\.ts$' },
      to: { path: '^src/x12/benefits/', pathNot: '^src/x12/benefits/index\\.ts$' },
    },
    {
      name: 'no-circular',
      comment: 'An import cycle: put what both sides need in a file both can import.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-dev-dependency',
      comment:
        'src/ runs in production, where devDependencies are not installed (type-only imports are erased, so they may). ts-worker.mjs starts worker threads only when the service runs from its TypeScript sources, through tsx.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/operations/ts-worker\\.mjs$' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-non-package-json',
      comment: 'A package that is not in package.json works only by accident of hoisting.',
      severity: 'error',
      from: {},
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // mainFields: a types-only package (@medplum/fhirtypes, whose `main` is empty) resolves to its `types`.
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], mainFields: ['main', 'types'] },
  },
};

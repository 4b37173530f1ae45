/**
 * The client workspace as npm sees it (packages/client, published as coverage-service-client): no
 * dependencies, a tarball of the build alone, declarations that import nothing outside the package and
 * that describe exactly what the server's TypeBox schemas do. Builds dist/ first when needed, like
 * package.test.ts; scripts/pack-check.sh installs the real tarball alone.
 */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLIENT = join(ROOT, 'packages/client');
const DIST = join(CLIENT, 'dist');
type Manifest = {
  name: string;
  version: string;
  engines: { node: string };
  dependencies?: Record<string, string>;
  workspaces?: string[];
  [field: string]: unknown;
};
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Manifest;
const client = read(join(CLIENT, 'package.json'));
const server = read(join(ROOT, 'package.json'));

before(() => {
  const build = spawnSync(process.execPath, ['scripts/ensure-build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, build.stderr);
});

test('the client is a workspace of the server, released with it: same version, same engines, no dependencies of any kind', () => {
  assert.deepEqual(server.workspaces, ['packages/client']);
  assert.equal(server.dependencies?.[client.name], client.version, 'the server depends on the client of its own release');
  assert.equal(client.version, server.version);
  assert.equal(client.engines.node, server.engines.node);
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'bundleDependencies', 'devDependencies']) {
    assert.equal(client[field], undefined, `packages/client/package.json has ${field}`);
  }
});

test('npm pack of the client ships its build, README and license, and nothing else', async () => {
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', '--workspace', client.name], { cwd: ROOT });
  const files = (JSON.parse(stdout) as [{ files: { path: string }[] }])[0].files.map((f) => f.path).sort();
  for (const expected of ['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts', 'dist/api-types.d.ts']) {
    assert.ok(files.includes(expected), `${expected} missing from the client's tarball`);
  }
  assert.deepEqual(
    files.filter((f) => !['package.json', 'README.md', 'LICENSE'].includes(f) && !f.startsWith('dist/')),
    [],
  );
});

test('the published declarations compile on their own, reaching no file outside the package', () => {
  const program = ts.createProgram([join(DIST, 'index.d.ts')], {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  });
  const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  assert.deepEqual(problems, []);
  const reached = program
    .getSourceFiles()
    .map((f) => f.fileName)
    .filter((f) => !program.isSourceFileDefaultLibrary(program.getSourceFile(f)!));
  assert.deepEqual(
    reached.filter((f) => relative(DIST, f).startsWith('..')),
    [],
  );
  assert.ok(reached.some((f) => f.endsWith('api-types.d.ts')));
});

test('each published type is the schema type, both ways, and none is any (which would pass both ways)', () => {
  const built = readFileSync(join(DIST, 'api-types.d.ts'), 'utf8');
  assert.doesNotMatch(built.replace(/"[^"]*"/g, '""'), /\bany\b/);
  const names = [...built.matchAll(/^export type (\w+)/gm)].map((m) => m[1]!);
  const bridge = readFileSync(join(CLIENT, 'src/api-types.ts'), 'utf8');
  const bridged = [...bridge.matchAll(/^\s*(\w+),?$|export type \{ ([^}]+) \}/gm)].flatMap((m) =>
    (m[1] ?? m[2]!)
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean),
  );
  assert.deepEqual(names.sort(), [...new Set(bridged)].sort(), 'every type the bridge re-exports is published');

  const dir = mkdtempSync(join(tmpdir(), 'coverage-client-types-'));
  try {
    const file = join(dir, 'same.ts');
    const checks = names.map((n) => `const same${n}: [Built.${n}] extends [Source.${n}] ? ([Source.${n}] extends [Built.${n}] ? true : false) : false = true;`);
    writeFileSync(
      file,
      [
        `import type * as Built from ${JSON.stringify(join(DIST, 'api-types.js'))};`,
        `import type * as Source from ${JSON.stringify(join(CLIENT, 'src/api-types.ts'))};`,
        ...checks,
        `export { ${names.map((n) => `same${n}`).join(', ')} };`,
      ].join('\n'),
    );
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules/@types')],
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file?.fileName === file)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    assert.deepEqual(problems, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * The package as npm sees it: what `npm pack` ships, what the client's import graph reaches, which
 * Node versions the dependencies admit, and `npm start` handing signals to the server itself.
 * The only suite that builds dist/ (through scripts/ensure-build.mjs); the pack-and-install check
 * of a real tarball is scripts/pack-check.sh, run by CI.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import semver from 'semver';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  exports: Record<string, { types: string; default: string } | string>;
};

before(() => {
  const build = spawnSync(process.execPath, ['scripts/ensure-build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, build.stderr);
});

/** Module specifiers a file keeps at run time: every import and re-export that is not `import type` / `export type`. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found: string[] = [];
  for (const node of source.statements) {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) found.push((node.moduleSpecifier as ts.StringLiteral).text);
    if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier) found.push((node.moduleSpecifier as ts.StringLiteral).text);
  }
  source.forEachChild(function visit(node) {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) found.push(node.arguments[0]!.getText(source));
    node.forEachChild(visit);
  });
  return found;
}

test('coverage-service-client loads no dependency and no server code: its run-time imports stay in packages/client/src/', () => {
  const seen = new Set<string>();
  const pending = [join(ROOT, 'packages/client/src/index.ts')];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of runtimeImports(file)) {
      assert.ok(specifier.startsWith('./'), `${relative(ROOT, file)} imports ${specifier} at run time`);
      pending.push(resolve(dirname(file), specifier));
    }
  }
  assert.deepEqual([...seen].map((f) => relative(ROOT, f)).sort(), [
    'packages/client/src/coverage-client.ts',
    'packages/client/src/errors.ts',
    'packages/client/src/index.ts',
    'packages/client/src/retry-after.ts',
  ]);
  assert.deepEqual(runtimeImports(join(ROOT, 'src/client/index.ts')), ['coverage-service-client'], 'coverage-service/client re-exports the client package');
});

test('the exports point at built files, each with its types', async () => {
  for (const [name, target] of Object.entries(pkg.exports)) {
    if (typeof target === 'string') continue;
    readFileSync(join(ROOT, target.types));
    const mod = (await import(join(ROOT, target.default))) as Record<string, unknown>;
    assert.equal(typeof mod.CoverageClient, 'function', name);
    assert.equal(typeof mod.CoverageApiError, 'function', name);
  }
  const server = (await import(join(ROOT, 'dist/index.js'))) as Record<string, unknown>;
  assert.equal(typeof server.startRuntime, 'function');
  assert.equal(typeof server.loadConfig, 'function');
});

test('npm pack ships the build, the bin, the license and the linked docs, and no sources, tests or bench code', async () => {
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT });
  const files = (JSON.parse(stdout) as [{ files: { path: string }[] }])[0].files.map((f) => f.path);
  for (const expected of [
    'package.json',
    'README.md',
    'LICENSE',
    'bin/coverage.js',
    'bin/dist-state.js',
    'dist/index.js',
    'dist/index.d.ts',
    'dist/client/index.js',
    'dist/client/index.d.ts',
    'dist/cli/check.js',
    'dist/cli/main.js',
    'dist/http/console/index.html',
    // Worker threads' files, started by path (src/store/checkpointer.ts, src/operations/remittance/reader.ts).
    'dist/store/checkpoint-worker.js',
    'dist/operations/remittance/read-worker.js',
    'docs/operating.md',
  ]) {
    assert.ok(files.includes(expected), `${expected} missing from the tarball`);
  }
  const stray = files.filter(
    (f) => /^(src|test|scripts|deploy|packages|\.ci)\//.test(f) || (f.startsWith('bench/') && f !== 'bench/RESULTS.md') || f.endsWith('.png'),
  );
  assert.deepEqual(stray, []);
});

test('engines admits no Node version that a run-time dependency refuses', async () => {
  const minimum = semver.minVersion(pkg.engines.node)!;
  const { stdout } = await promisify(execFile)('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  const refusing: string[] = [];
  for (const dir of new Set(stdout.trim().split('\n').slice(1))) {
    const dep = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; version: string; engines?: { node?: string } };
    const range = dep.engines?.node;
    if (range && !semver.satisfies(minimum, range)) refusing.push(`${dep.name}@${dep.version} needs node ${range}`);
  }
  assert.ok(Object.keys(pkg.dependencies).length > 0);
  assert.deepEqual(refusing, [], `engines says ${pkg.engines.node}`);
});

test('npm start execs the server: SIGTERM to the npm process stops the server, nothing keeps serving', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'coverage-start-'));
  const env: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', COVERAGE_DATA_DIR: dataDir };
  for (const name of ['COVERAGE_MODE', 'COVERAGE_DEV_KEY', 'DATABASE_URL', 'REDIS_URL', 'NODE_TEST_CONTEXT']) delete env[name];
  const npm = spawn('npm', ['start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  try {
    const exited = once(npm, 'exit');
    const url = await new Promise<string>((done, fail) => {
      npm.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        const match = /listening on (http:\/\/\S+)/.exec(stdout);
        if (match) done(match[1]!.replace('localhost', '127.0.0.1'));
      });
      void exited.then(() => fail(new Error(`npm start ended before listening:\n${stdout}`)));
    });
    assert.equal((await fetch(`${url}/healthz`)).status, 200);
    npm.kill('SIGTERM');
    await exited;
    const after = await fetch(`${url}/healthz`).then(
      (res) => `HTTP ${res.status}`,
      (err: Error & { cause?: { code?: string } }) => err.cause?.code ?? String(err),
    );
    assert.equal(after, 'ECONNREFUSED');
  } finally {
    npm.kill('SIGKILL');
    // Were the server left behind, its pid is in its first log line: end it, so a failure does not hang the suite.
    const serverPid = /"pid":(\d+)/.exec(stdout)?.[1];
    if (serverPid) {
      try {
        process.kill(Number(serverPid), 'SIGKILL');
      } catch {
        /* already gone, as it should be */
      }
    }
    npm.stdout.destroy();
    npm.stderr.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

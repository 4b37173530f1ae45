/**
 * The `coverage` command runs from one esbuild bundle (scripts/bundle-cli.mjs): its stack traces must
 * still name the src/ files and lines, and the files it reads beside the code (package.json, the
 * console's assets, the example answers) must resolve as in tsc's output. Builds dist/ first when it
 * is missing or stale, as the package suite does.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUNDLE = join(ROOT, 'dist', 'cli', 'bundle');

before(() => {
  const build = spawnSync(process.execPath, ['scripts/ensure-build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, build.stderr);
});

const chunkExporting = (name: string) => {
  const file = readdirSync(BUNDLE).find((f) => f.endsWith('.js') && new RegExp(`export \\{[^}]*\\b${name}\\b`).test(readFileSync(join(BUNDLE, f), 'utf8')));
  assert.ok(file, `no chunk of dist/cli/bundle/ exports ${name}`);
  return join(BUNDLE, file);
};

test('dist/cli/main.js runs the bundle, and an error thrown in it names its src/ file and line', () => {
  assert.match(readFileSync(join(ROOT, 'dist', 'cli', 'main.js'), 'utf8'), /setSourceMapsEnabled\(true\);\s*await import\('\.\/bundle\/main\.js'\)/);
  const script = `process.setSourceMapsEnabled(true);
const { build270 } = await import(${JSON.stringify(new URL(`file://${chunkExporting('build270')}`).href)});
try { build270(undefined); } catch (err) { console.log(err.stack); }`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /at .*build270 \(.*src\/x12\/build-270\.ts:\d+:\d+\)/);
});

test('the bundled CLI reads what tsc output reads beside the code: its version, and the paths built from import.meta.url', () => {
  const version = spawnSync(process.execPath, ['dist/cli/main.js', '--version'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(version.stdout.trim(), (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version);
  // Every import.meta.url of src/ was rewritten to its compiled file's URL (dist/...), none left as the chunk's.
  const rewritten = readdirSync(BUNDLE)
    .filter((f) => f.endsWith('.js'))
    .flatMap((f) => [...readFileSync(join(BUNDLE, f), 'utf8').matchAll(/new URL\("(\.\.\/[^"]+\.js)", import\.meta\.url\)\.href/g)].map((m) => m[1]!));
  assert.ok(rewritten.length > 0);
  for (const path of rewritten) {
    const compiled = join(BUNDLE, path);
    assert.ok(compiled.startsWith(join(ROOT, 'dist') + '/'), `${path} leaves dist/`);
    const source = join(ROOT, 'src', relative(join(ROOT, 'dist'), compiled)).replace(/\.js$/, '.ts');
    assert.ok(readFileSync(source, 'utf8').includes('import.meta.url'), `${path} is not where tsc compiles a module that reads import.meta.url`);
  }
});

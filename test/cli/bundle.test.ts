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
import ts from 'typescript';

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

/** The bare specifiers (packages) src/ imports on demand, with whether each site reads only the module's `default`. */
function onDemandPackageImports(): { site: string; specifier: string; readsDefault: boolean }[] {
  const readsDefaultOnly = (name: ts.BindingName) =>
    ts.isObjectBindingPattern(name) && name.elements.every((e) => e.dotDotDotToken === undefined && (e.propertyName ?? e.name).getText() === 'default');
  const readsDefault = (call: ts.CallExpression): boolean => {
    const parent = call.parent;
    // const [{ default: A }, { default: B }] = await Promise.all([import('a'), import('b')])
    if (ts.isArrayLiteralExpression(parent)) {
      const declaration = parent.parent.parent.parent;
      const element =
        ts.isVariableDeclaration(declaration) && ts.isArrayBindingPattern(declaration.name)
          ? declaration.name.elements[parent.elements.indexOf(call)]
          : undefined;
      return element !== undefined && ts.isBindingElement(element) && readsDefaultOnly(element.name);
    }
    // const { default: a } = await import('a'), or (await import('a')).default
    if (ts.isAwaitExpression(parent)) {
      if (ts.isVariableDeclaration(parent.parent)) return readsDefaultOnly(parent.parent.name);
      const outer = ts.isParenthesizedExpression(parent.parent) ? parent.parent.parent : undefined;
      return outer !== undefined && ts.isPropertyAccessExpression(outer) && outer.name.text === 'default';
    }
    // import('a').then(({ default: a }) => ...) or .then((m) => m.default ...)
    if (ts.isPropertyAccessExpression(parent) && parent.name.text === 'then' && ts.isCallExpression(parent.parent)) {
      const callback = parent.parent.arguments[0];
      if (callback === undefined || !(ts.isArrowFunction(callback) || ts.isFunctionExpression(callback)) || callback.parameters[0] === undefined) return false;
      const param = callback.parameters[0].name;
      if (!ts.isIdentifier(param)) return readsDefaultOnly(param);
      let onlyDefault = true;
      (function visit(node: ts.Node) {
        if (ts.isIdentifier(node) && node.text === param.text && !(ts.isPropertyAccessExpression(node.parent) && node.parent.name.text === 'default'))
          onlyDefault = false;
        node.forEachChild(visit);
      })(callback.body);
      return onlyDefault;
    }
    return false;
  };
  const found: { site: string; specifier: string; readsDefault: boolean }[] = [];
  const files = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(join(ROOT, 'src', file), 'utf8'), ts.ScriptTarget.Latest, true);
    source.forEachChild(function visit(node) {
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const argument = node.arguments[0];
        if (argument && ts.isStringLiteral(argument) && !argument.text.startsWith('.')) {
          const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
          found.push({ site: `src/${file}:${line}`, specifier: argument.text, readsDefault: readsDefault(node) });
        }
      }
      node.forEachChild(visit);
    });
  }
  return found;
}

test("a package loaded on demand is read through its default export, the only one the bundle's chunk of a CommonJS package has", () => {
  const sites = onDemandPackageImports();
  assert.ok(
    sites.some((s) => s.specifier === 'undici'),
    'the webhook sender loads undici on demand',
  );
  const named = sites.filter((s) => !s.readsDefault).map((s) => `${s.site} import('${s.specifier}')`);
  assert.deepEqual(named, [], 'read these through `default` (CONTRIBUTING.md, "Loading a package on demand")');
  // What the rule guards against: esbuild's chunk for a bundled CommonJS package exports module.exports as `default` only.
  const chunk = readdirSync(BUNDLE).find((f) => /^undici-[A-Z0-9]+\.js$/.test(f));
  assert.ok(chunk, 'dist/cli/bundle/ has a chunk of its own for undici, loaded on demand');
  assert.match(readFileSync(join(BUNDLE, chunk), 'utf8'), /^export default require_undici\(\);$/m);
  assert.doesNotMatch(readFileSync(join(BUNDLE, chunk), 'utf8'), /^export \{/m);
});

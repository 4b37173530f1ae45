// `npm run build`: build the client workspace (packages/client/dist/, which the server's
// `coverage-service/client` re-exports and its declarations import), compile src/ to dist/ with tsc
// (tsconfig.build.json), copy the files the server reads at run time (console page, JSON data) beside
// the compiled code, bundle the `coverage` command over dist/cli/main.js (bundle-cli.mjs), then stamp
// the build.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { BUILD_STAMP, ROOT } from '../bin/dist-state.js';
import { bundleCli } from './bundle-cli.mjs';

const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');
const started = new Date();

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  console.error('build: TypeScript is not installed. Building needs the devDependencies (npm install without --omit=dev);');
  console.error(
    'to run in production without them, install the packed tarballs (docs/operating.md): npm pack && npm pack --workspace coverage-service-client, then',
  );
  console.error('npm install --omit=dev coverage-service-client-<version>.tgz coverage-service-<version>.tgz');
  process.exit(1);
}
const client = spawnSync(process.execPath, [join(ROOT, 'packages/client/scripts/build.mjs')], { stdio: 'inherit' });
if (client.status !== 0) {
  console.error('build: the client package (packages/client) did not build');
  process.exit(client.status ?? 1);
}
rmSync(DIST, { recursive: true, force: true });
const compiled = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
if (compiled.status !== 0) {
  console.error('build: tsc failed; dist/ is incomplete');
  process.exit(compiled.status ?? 1);
}

let copied = 0;
(function copyAssets(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) copyAssets(path);
    else if (!name.endsWith('.ts')) {
      const to = join(DIST, relative(SRC, path));
      mkdirSync(dirname(to), { recursive: true });
      cpSync(path, to);
      copied++;
    }
  }
})(SRC);

const bundled = await bundleCli(ROOT);

writeFileSync(BUILD_STAMP, `${started.toISOString()}\n`);
utimesSync(BUILD_STAMP, started, started);
console.log(`build: dist/ compiled, ${copied} asset file(s) copied, the coverage command bundled (${bundled.length} file(s) in dist/cli/bundle/)`);

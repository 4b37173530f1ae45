// The `coverage` command as one esbuild bundle (run by build.mjs after tsc): Node 20 has no compile
// cache, and loading the server as some 1,500 separate modules (ours and the dependencies') was most of
// its start-up (bench/RESULTS.md, "Start-up and memory, cut on 2026-11-27"). dist/cli/main.js becomes
// a stub that turns source maps on and imports dist/cli/bundle/main.js, so `npm start`, bin/coverage.js
// and the bench run the bundle while stack traces still name the src/ files and lines. The rest of dist/
// (tsc's output) stays: it is the library (`coverage-service`, `coverage-service/client`), and where the
// data files and the console's assets are read from. Dynamic imports stay lazy (split into chunks).
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { coarsenMappings } from './source-maps.mjs';

/**
 * Loaded from node_modules at run time rather than bundled: native addons, packages that read their
 * own files beside their code (swagger-ui's page), and drivers loaded only when configured, whose
 * optional native parts (pg-native) esbuild cannot resolve.
 */
export const EXTERNAL = ['better-sqlite3', 'argon2', 'pg', 'pg-native', 'ioredis', '@fastify/swagger-ui'];

/**
 * A source file's `import.meta.url`, rewritten for code moved into the bundle: the URL of the file tsc
 * compiled it to (dist/x/y.js), so paths resolved from it (package.json, the console's folder, the
 * example answers) are the same as in the unbundled build.
 */
export function compiledUrlExpression(root, bundleDir, sourceFile) {
  const compiled = join(root, 'dist', relative(join(root, 'src'), sourceFile)).replace(/\.ts$/, '.js');
  return `new URL(${JSON.stringify(relative(bundleDir, compiled).split('\\').join('/'))}, import.meta.url).href`;
}

const STUB = `// Written by scripts/bundle-cli.mjs. Node reads a module's source map only if maps are on when it
// loads, so they are turned on here, before the bundle is imported.
process.setSourceMapsEnabled(true);
await import('./bundle/main.js');
`;

/** Bundles src/cli/main.ts into dist/cli/bundle/ and points dist/cli/main.js at it. Returns the bundle's files. */
export async function bundleCli(root) {
  const { build } = await import('esbuild');
  const bundleDir = join(root, 'dist', 'cli', 'bundle');
  const srcDir = join(root, 'src') + '/';
  const importMetaUrl = {
    name: 'compiled-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
        const text = await readFile(path, 'utf8');
        const contents =
          path.startsWith(srcDir) && text.includes('import.meta.url') ? text.replaceAll('import.meta.url', compiledUrlExpression(root, bundleDir, path)) : text;
        return { contents, loader: 'ts' };
      });
    },
  };
  const result = await build({
    entryPoints: { main: join(root, 'src', 'cli', 'main.ts') },
    outdir: bundleDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    sourcesContent: false,
    external: EXTERNAL,
    // The dependencies written as CommonJS call require(), which an ES module does not have.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    plugins: [importMetaUrl],
    metafile: true,
    logLevel: 'warning',
  });
  await writeFile(join(root, 'dist', 'cli', 'main.js'), STUB);
  const outputs = Object.keys(result.metafile.outputs);
  // Our sources mapped token by token, the dependencies line by line (source-maps.mjs says why).
  for (const file of outputs.filter((f) => f.endsWith('.js.map'))) {
    const path = join(root, file);
    const map = JSON.parse(await readFile(path, 'utf8'));
    await writeFile(path, JSON.stringify(coarsenMappings(map, (source) => !/(^|\/)node_modules\//.test(source))));
  }
  return outputs.filter((file) => file.endsWith('.js'));
}

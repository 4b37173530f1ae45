/**
 * The node flags the server is launched with are given in two places, bin/coverage.js's first line
 * and `npm start`; they must agree, and the bench (bench/lib/processes.ts) starts the service with the
 * same, so its memory and start-up figures are those of the shipped launch paths.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { launchFlags, ROOT } from '../../bench/lib/processes.ts';

test("bin/coverage.js's shebang and npm start give node the same flags, and the bench reads them", () => {
  const shebang = readFileSync(new URL('../../bin/coverage.js', import.meta.url), 'utf8').split('\n', 1)[0]!;
  const fromShebang = /^#!\/usr\/bin\/env (?:-S )?node((?: \S+)*)$/.exec(shebang)?.[1]?.split(' ').filter(Boolean);
  assert.ok(fromShebang, shebang);
  const { scripts } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
  const fromStart = /\bexec node((?: --\S+)*) dist\/cli\/main\.js serve$/.exec(scripts.start!)?.[1]?.split(' ').filter(Boolean);
  assert.ok(fromStart, scripts.start);
  assert.deepEqual(fromStart, fromShebang);
  const saved = process.env.BENCH_NODE_FLAGS;
  delete process.env.BENCH_NODE_FLAGS;
  try {
    assert.deepEqual(launchFlags(ROOT), fromShebang);
  } finally {
    if (saved !== undefined) process.env.BENCH_NODE_FLAGS = saved;
  }
});

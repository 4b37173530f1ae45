/** COVERAGE_HEAP: fast (the default) or small; anything else stops the start with a clear message. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { applyHeapProfile } from '../../src/cli/heap-profile.ts';

const flagsOf = (env: NodeJS.ProcessEnv) => {
  const flags: string[] = [];
  applyHeapProfile(env, (flag) => flags.push(flag));
  return flags;
};

test('fast (and no choice) leaves V8 as it is; small turns on --optimize-for-size and nothing else', () => {
  assert.deepEqual(flagsOf({}), []);
  assert.deepEqual(flagsOf({ COVERAGE_HEAP: 'fast' }), []);
  assert.deepEqual(flagsOf({ COVERAGE_HEAP: 'small' }), ['--optimize-for-size']);
});

test("small's flag is one this Node's V8 knows (an unknown flag would be ignored without a word)", () => {
  const options = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' }).stdout;
  for (const flag of flagsOf({ COVERAGE_HEAP: 'small' })) {
    const name = flag.replace(/^--/, '').split('=')[0]!;
    assert.ok(options.includes(`--${name} `) || options.includes(`--${name.replaceAll('-', '_')} `), `${flag} is not in node --v8-options`);
  }
});

test('COVERAGE_HEAP takes fast or small and refuses anything else', () => {
  assert.throws(() => applyHeapProfile({ COVERAGE_HEAP: 'speed' }, () => {}), /COVERAGE_HEAP must be fast or small, got "speed"/);
  assert.throws(() => applyHeapProfile({ COVERAGE_HEAP: 'toString' }, () => {}), /COVERAGE_HEAP must be fast or small/);
});

/** COVERAGE_HEAP: fast (the default) or small; anything else stops the start with a clear message. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyHeapProfile } from '../../src/cli/heap-profile.ts';

test('COVERAGE_HEAP takes fast or small and refuses anything else', () => {
  assert.doesNotThrow(() => applyHeapProfile({ COVERAGE_HEAP: 'fast' }));
  assert.doesNotThrow(() => applyHeapProfile({}));
  assert.throws(() => applyHeapProfile({ COVERAGE_HEAP: 'speed' }), /COVERAGE_HEAP must be fast or small, got "speed"/);
  assert.throws(() => applyHeapProfile({ COVERAGE_HEAP: 'toString' }), /COVERAGE_HEAP must be fast or small/);
});

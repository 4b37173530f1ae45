/** COVERAGE_V8_OPTIMIZE_FOR: size (the default) or speed; anything else stops the start with a clear message. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyHeapProfile } from '../../src/cli/heap-profile.ts';

test('speed keeps V8 as it is; an unknown value is refused by name', () => {
  assert.doesNotThrow(() => applyHeapProfile({ COVERAGE_V8_OPTIMIZE_FOR: 'speed' }));
  assert.throws(() => applyHeapProfile({ COVERAGE_V8_OPTIMIZE_FOR: 'fast' }), /COVERAGE_V8_OPTIMIZE_FOR must be size or speed, got "fast"/);
});

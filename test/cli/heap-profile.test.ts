/** COVERAGE_HEAP: small (the default) or fast; anything else stops the start with a clear message. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyHeapProfile } from '../../src/cli/heap-profile.ts';

test('COVERAGE_HEAP takes small or fast and refuses anything else', () => {
  assert.doesNotThrow(() => applyHeapProfile({ COVERAGE_HEAP: 'fast' }));
  assert.throws(() => applyHeapProfile({ COVERAGE_HEAP: 'speed' }), /COVERAGE_HEAP must be small or fast, got "speed"/);
  assert.throws(() => applyHeapProfile({ COVERAGE_HEAP: 'toString' }), /COVERAGE_HEAP must be small or fast/);
});

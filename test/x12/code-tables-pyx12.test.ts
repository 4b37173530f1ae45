/**
 * The pyx12 map check (scripts/pyx12-map.ts, run by hand on the map: test/fixtures/pyx12/README.md) on a
 * map written here in pyx12's shape, so the reader and the check cannot pass empty; and elements.json
 * itself.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ELEMENT_RULES, codeTable } from '../../src/x12/code-tables/index.ts';
import { codedElements, undecided } from '../../scripts/pyx12-map.ts';

/** Two loops of a 271 map in pyx12's XML shape: EB13-01 with its codes, III01, one value no table lists. */
const MAP = `<transaction xid="271"><loop xid="2000C"><loop xid="2110C">
  <segment xid="EB"><element xid="EB13-01"><valid_codes><code>AD</code><code>CJ</code><code>HC</code></valid_codes></element></segment>
  <loop xid="2115C"><segment xid="III"><element xid="III01"><valid_codes><code>GR</code><code>ZZ</code></valid_codes></element></segment></loop>
  <segment xid="DTP"><element xid="DTP01"><valid_codes><code>348</code><code>XQZ</code></valid_codes></element></segment>
</loop></loop></transaction>`;

test('the map reader finds each coded element in its loop, and the check names the one value no table decides', () => {
  const elements = codedElements(MAP);
  assert.deepEqual(
    elements.map((e) => [e.loop, e.element, e.codes]),
    [
      ['2110C', 'EB13-01', ['AD', 'CJ', 'HC']],
      ['2115C', 'III01', ['GR', 'ZZ']],
      ['2110C', 'DTP01', ['348', 'XQZ']],
    ],
  );
  assert.deepEqual(undecided(elements), ['2110C DTP01 XQZ: not in dtp-2110.json']);
});

test('elements.json names only tables that exist, and decides a whole element with a reason', () => {
  for (const [key, rule] of Object.entries(ELEMENT_RULES)) {
    assert.match(key, /^2(000|100|110|115|120) [A-Z][A-Z0-9]*(-\d\d)?$/, key);
    if (rule.table !== undefined) assert.ok(codeTable(rule.table)?.codes, `${key}: table ${rule.table}`);
    else assert.ok((rule.decision ?? '').length > 10, `${key}: a decision with its reason`);
  }
});

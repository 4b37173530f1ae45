/**
 * The pyx12 map check (scripts/pyx12-map.ts) on pyx12's own 271 map, vendored in test/fixtures/pyx12/
 * (README.md there says where it comes from): every value of every coded element of loops 2000C/D to
 * 2120C/D is decided by our code tables. Also on a map written here in pyx12's shape, so the reader and
 * the check cannot pass empty; and elements.json itself.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ELEMENT_RULES, codeTable } from '../../src/x12/code-tables/index.ts';
import { MEMBER_LOOP, codedElements, undecided } from '../../scripts/pyx12-map.ts';

const PYX12_MAP = new URL('../fixtures/pyx12/271.5010.X279.A1.xml', import.meta.url);

test("our code tables decide every value of every coded element of pyx12's 271 map in loops 2000C/D-2120C/D", () => {
  const elements = codedElements(readFileSync(PYX12_MAP, 'utf8'));
  const member = elements.filter((e) => MEMBER_LOOP.test(e.loop));
  // 137 in pyx12 1aece6b2: the reader must find the member loops, subscriber and dependent alike.
  assert.ok(member.length > 100, `${member.length} coded elements in the member loops`);
  for (const loop of ['2000C', '2100C', '2110C', '2115C', '2120C', '2000D', '2100D', '2110D', '2115D', '2120D']) {
    assert.ok(
      member.some((e) => e.loop === loop),
      `a coded element in ${loop}`,
    );
  }
  assert.ok(
    member.some((e) => e.loop === '2110C' && e.element === 'EB03' && e.codes.length > 100),
    'EB03 with its service types',
  );
  assert.deepEqual(undecided(elements), []);
});

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

/**
 * `node --import tsx scripts/check-code-tables-pyx12.ts [MAP.xml]`: checks our code tables against
 * MAP.xml, or PYX12_271_MAP, or pyx12's 271 map vendored in test/fixtures/pyx12/ (README.md there);
 * exits 1 listing each value no table decides. test/x12/code-tables-pyx12.test.ts runs the same check
 * on the vendored map; the script is for another version of it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { codedElements, MEMBER_LOOP, undecided } from './pyx12-map.ts';

const path = process.argv[2] ?? process.env['PYX12_271_MAP'] ?? fileURLToPath(new URL('../test/fixtures/pyx12/271.5010.X279.A1.xml', import.meta.url));
const elements = codedElements(readFileSync(path, 'utf8'));
const member = elements.filter((e) => MEMBER_LOOP.test(e.loop));
// The map is the whole 271: a parse that found few elements read the wrong file.
if (member.length < 100) {
  console.error(`only ${member.length} coded elements in the member loops: is ${path} the 005010X279A1 271 map?`);
  process.exit(1);
}
const missing = undecided(elements);
for (const m of missing) console.log(m);
console.log(`${member.length} coded elements of loops 2000C/D-2120C/D, ${missing.length} value(s) undecided`);
process.exit(missing.length === 0 ? 0 : 1);

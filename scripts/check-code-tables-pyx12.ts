/**
 * `node --import tsx scripts/check-code-tables-pyx12.ts [MAP.xml]`: checks our code tables against
 * pyx12's 271 map (test/fixtures/pyx12/README.md), or PYX12_271_MAP; exits 1 listing each value no
 * table decides. Its last run is recorded in that README.
 */
import { readFileSync } from 'node:fs';
import { codedElements, MEMBER_LOOP, undecided } from './pyx12-map.ts';

const path = process.argv[2] ?? process.env['PYX12_271_MAP'];
if (!path) {
  console.error('usage: check-code-tables-pyx12.ts MAP.xml (pyx12/map/271.5010.X279.A1.xml; test/fixtures/pyx12/README.md)');
  process.exit(2);
}
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

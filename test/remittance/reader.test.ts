/**
 * The 835 reader in a worker thread (src/operations/remittance/reader.ts) gives what readRemittances
 * gives on the event loop: the remittances of a file larger than one message's claims, a file of
 * two transaction sets, the error of an unreadable file, reads sent at once.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { CLAIMS_PER_MESSAGE } from '../../src/operations/remittance/read-messages.ts';
import { RemittanceReader } from '../../src/operations/remittance/reader.ts';
import { readRemittances } from '../../src/x12/remittance/read-835.ts';
import { claimOf, PR, remittance835, serviceLine } from '../helpers/remittance-835.ts';

const reader = new RemittanceReader();
after(() => reader.close());

const fileOf = (claims: number, payer = 'SBX-AETNA') =>
  remittance835(
    payer,
    Array.from({ length: claims }, (_, i) =>
      claimOf(`C${i + 1}`, { member_id: `${10000 + i}MHNA`, member_first_name: 'Avery', member_last_name: 'Walsh' }, [
        serviceLine('90837', 15000, 12000, [PR('3', 3000)], 15000),
        ...(i % 3 === 0 ? [serviceLine('90785', 3000, 3000, [])] : []),
      ]),
    ),
  );

/** Two 835 transaction sets in one interchange: the second file's ST..SE spliced before the first's GE. */
function twoSets(a: string, b: string): string {
  const stOf = (text: string) => text.slice(text.indexOf('\nST*') + 1, text.indexOf('\nGE*') + 1);
  const at = a.indexOf('\nGE*') + 1;
  return (
    a.slice(0, at) +
    stOf(b)
      .replace(/ST\*835\*\d+/, 'ST*835*9999')
      .replace(/SE\*(\d+)\*\d+/, 'SE*$1*9999') +
    a.slice(at)
  );
}

test('a file of more claims than one message holds reads as on the event loop', async () => {
  const file = fileOf(CLAIMS_PER_MESSAGE * 2 + 7);
  const read = await reader.read(file);
  assert.ok(read.ok);
  assert.equal(read.value[0]!.claims.length, CLAIMS_PER_MESSAGE * 2 + 7);
  assert.deepEqual(read, readRemittances(file));
});

test('two transaction sets, and reads sent at once, each get their own remittances', async () => {
  const two = twoSets(fileOf(5), fileOf(CLAIMS_PER_MESSAGE + 1, 'SBX-HARBOR'));
  const single = fileOf(3);
  const [a, b] = await Promise.all([reader.read(two), reader.read(single)]);
  const expected = readRemittances(two);
  assert.ok(expected.ok && expected.value.length === 2, JSON.stringify(expected.ok ? expected.warnings : expected.error));
  assert.deepEqual(a, expected);
  assert.deepEqual(b, readRemittances(single));
});

test('an unreadable file gives the error readRemittances gives, and the worker reads on', async () => {
  const broken = fileOf(2).replace('CLP*C2*1*150*', 'CLP*C2*1*ABC*');
  assert.notEqual(broken, fileOf(2));
  const read = await reader.read(broken);
  assert.equal(read.ok, false);
  assert.deepEqual(read, readRemittances(broken));
  assert.deepEqual(await reader.read('not an interchange'), readRemittances('not an interchange'));
  assert.ok((await reader.read(fileOf(1))).ok);
});

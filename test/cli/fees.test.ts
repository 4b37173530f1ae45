/** coverage fees import / list: a fee schedule per key from CSV, every bad row named, nothing imported then (docs/good-faith-estimate.md). */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { importFees, listFees } from '../../src/cli/fees.ts';
import { dollarsToCents, parseFeeSchedule } from '../../src/formats/fee-schedule.ts';
import { GfeStore } from '../../src/store/good-faith-estimates.ts';
import { KeyStore } from '../../src/store/keys.ts';
import { runCli } from '../support/processes.ts';
import { sqliteStore } from '../support/stores.ts';

const capture = () => {
  const io = { out: '', err: '', stdout: (s: string) => void (io.out += s), stderr: (s: string) => void (io.err += s) };
  return io;
};

test('dollars become exact cents', () => {
  assert.deepEqual(['150', '150.00', '150.5', '$1,250.50', '0.07', '1,5', '150.005', '-10', 'abc', ''].map(dollarsToCents), [
    15000,
    15000,
    15050,
    125050,
    7,
    null,
    null,
    null,
    null,
    null,
  ]);
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 100_000_000 }), (cents) => {
      const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
      assert.equal(dollarsToCents(text), cents);
      assert.equal(dollarsToCents(`$${Math.floor(cents / 100).toLocaleString('en-US')}.${String(cents % 100).padStart(2, '0')}`), cents);
    }),
  );
});

test('a schedule: header aliases, optional modifier; each bad row named with its line and what is wrong', () => {
  const good = parseFeeSchedule('CPT,Modifier,Fee\n90837,,150.00\n90837,95,$145\nh0031,,"1,200"\n');
  assert.deepEqual(good, {
    rows: [
      { code: '90837', modifier: null, charge_cents: 15000 },
      { code: '90837', modifier: '95', charge_cents: 14500 },
      { code: 'H0031', modifier: null, charge_cents: 120000 },
    ],
    problems: [],
  });
  const bad = parseFeeSchedule('code,modifier,charge\n90837,,150\n9083,,150\n90834,X,12.345\n90837,,160\n');
  assert.deepEqual(bad.problems, [
    { line: 3, message: 'code "9083" is not a CPT or HCPCS code (five characters, e.g. 90837 or H0031)' },
    { line: 4, message: 'modifier "X" is not two letters or digits; charge "12.345" is not an amount in dollars (e.g. 150 or 150.00)' },
    { line: 5, message: '90837 is already on line 2' },
  ]);
  assert.deepEqual(parseFeeSchedule('service,price\n90837,1\n').problems, [
    { line: 1, message: 'no code column: name one code, cpt, hcpcs, cpt_hcpcs, procedure_code, service_code' },
  ]);
  assert.equal(parseFeeSchedule('').problems[0]!.line, 0);
});

test('import replaces the key owner schedule; a bad file imports nothing; an unknown key is refused', async (t) => {
  const store = await sqliteStore();
  t.after(() => store.cleanup());
  const db = await store.open();
  const { key } = await new KeyStore(db).create({ name: 'clinic', env: 'sandbox' });
  const io = capture();
  assert.equal(await importFees(db, key.id, 'code,charge\n90837,150\n90791,200\n', io), 0);
  assert.match(io.err, /Imported 2 fees for key/);
  const bad = capture();
  assert.equal(await importFees(db, key.id, 'code,charge\n90837,160\n90791,two hundred\n', bad), 1);
  assert.match(bad.err, /^line 3: charge "two hundred" is not an amount in dollars/m);
  assert.match(bad.err, /Nothing imported: 1 problem\./);
  const fees = await new GfeStore(db).fees(key.id);
  assert.deepEqual([fees('90837', null), fees('90791', null)], [15000, 20000], 'the earlier schedule stands');
  const list = capture();
  assert.equal(await listFees(db, key.id, list), 0);
  assert.match(list.out, /^CODE\s+MODIFIER\s+CHARGE\n90791\s+-\s+\$200\.00\n90837\s+-\s+\$150\.00\n$/);
  assert.equal(await importFees(db, 'key_nope', 'code,charge\n90837,1\n', capture()), 2);
});

test('coverage fees import as a command, in its own process', async (t) => {
  const store = await sqliteStore();
  const dir = mkdtempSync(join(tmpdir(), 'coverage-fees-'));
  t.after(async () => {
    await store.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });
  const db = await store.open();
  const { key } = await new KeyStore(db).create({ name: 'clinic', env: 'sandbox' });
  await db.close();
  const file = join(dir, 'fees.csv');
  writeFileSync(file, 'code,modifier,charge\n90837,,150\n90837,95,145.50\n');
  const run = await runCli(['fees', 'import', file, '--key', key.id], store.env);
  assert.equal(run.code, 0, run.stderr);
  const listed = await runCli(['fees', 'list', '--key', key.id], store.env);
  assert.match(listed.stdout, /90837\s+95\s+\$145\.50/);
  writeFileSync(file, 'code,charge\nnope,1\n');
  const bad = await runCli(['fees', 'import', file, '--key', key.id], store.env);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /line 2: code "NOPE" is not a CPT or HCPCS code/);
});

/**
 * Issue 39, item 2: one upload held the event loop for a second (reading, validating, sealing and
 * inserting 10,000 rows at once). Each step now yields between slices: counted here through the
 * pause it is handed, never by the clock. Read in slices or at once, an upload gives the same rows
 * and the same errors.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { csvBatch, csvUpload, fromCsv, fromJson, jsonBatch } from '../../src/formats/batch-input.ts';
import { csvRecords, parseCsv } from '../../src/formats/csv.ts';
import { inSlices, runThrough } from '../../src/formats/slices.ts';
import { createCheckValidator } from '../../src/http/check-validator.ts';
import { AuditWriter } from '../../src/store/audit.ts';
import { BatchStore } from '../../src/store/batches.ts';
import { MonitorStore } from '../../src/store/monitors.ts';
import { WebhookStore } from '../../src/store/webhooks.ts';
import { sqliteStore } from '../support/stores.ts';
import { onDay } from '../helpers/clock.ts';

const validate = createCheckValidator(onDay('2026-06-15'));
const HEADER = 'member_id,member_first_name,member_last_name,member_dob,provider_npi,provider_session_cost';
const VALID = `${HEADER}\n${Array.from({ length: 10_000 }, (_, i) => `${100000 + i}MHNA,Avery,Walsh,1980-01-01,1234567893,15000`).join('\n')}\n`;
const INVALID = `${HEADER}\n${Array.from({ length: 10_000 }, () => '!!,!!,!!,!!,!!,!!').join('\n')}\n`;

/** A pause that counts its calls, and lets a turn of the event loop pass as the server's does. */
function countingPause() {
  const pause = Object.assign(
    async () => {
      pause.calls++;
      await new Promise((resolve) => setImmediate(resolve));
    },
    { calls: 0 },
  );
  return pause;
}

test('a 10,000-row CSV upload yields while it is read and validated, and reads as it does at once', async () => {
  for (const text of [VALID, INVALID]) {
    const pause = countingPause();
    const sliced = await inSlices(csvBatch(text, validate), pause);
    assert.ok(pause.calls >= 10_000 / 250 - 1, `paused ${pause.calls} times`);
    assert.deepEqual(sliced, fromCsv(text, validate));
  }
});

test('a callback scheduled as the upload starts runs before it is read', async () => {
  let ran = false;
  setImmediate(() => (ran = true));
  const input = await inSlices(csvBatch(VALID, validate), () => new Promise((resolve) => setImmediate(resolve)));
  assert.equal(ran, true);
  assert.equal(input.ok && input.checks.length, 10_000);
});

test('8 MB of blank lines yields while it is read, and is refused with the same words', async () => {
  const text = `${HEADER}\n${'\n'.repeat(8 * 1024 * 1024 - HEADER.length - 2)}`;
  const pause = countingPause();
  const sliced = await inSlices(csvBatch(text, validate), pause);
  assert.ok(pause.calls > 100, `paused ${pause.calls} times`);
  assert.deepEqual(sliced, { ok: false, errors: [{ field: '(csv)', message: 'must hold at least one check' }], errorCount: 1, invalidRows: [] });
});

test('the CSV reader yields every few thousand lines and gives the records parseCsv gives', () => {
  const reader = csvRecords(VALID);
  let yields = 0;
  let step = reader.next();
  while (!step.done) {
    yields++;
    step = reader.next();
  }
  assert.ok(yields >= 2, `yielded ${yields} times`);
  assert.deepEqual(step.value, parseCsv(VALID));
});

test('a 10,000-check JSON batch yields while it is validated, with the same errors', async () => {
  const body = {
    checks: Array.from({ length: 10_000 }, (_, i) => ({
      endpoint: 'estimate',
      request: { member_id: i % 2 ? `${100000 + i}MHNA` : '', member_dob: '1980-01-01', provider_npi: '1234567893', provider_session_cost: 15000 },
    })),
  };
  const pause = countingPause();
  const sliced = await inSlices(jsonBatch(body, validate), pause);
  assert.ok(pause.calls >= 10_000 / 250 - 1, `paused ${pause.calls} times`);
  assert.equal(sliced.ok, false);
  assert.deepEqual(sliced, fromJson(body, validate));
});

test('storing 10,000 rows, or 1,000 monitors, yields between slices; every row is stored', async () => {
  const store = await sqliteStore();
  try {
    const db = await store.open();
    const input = fromCsv(VALID, validate);
    assert.ok(input.ok);
    const pause = countingPause();
    const batch = await new BatchStore(db).create(
      { keyId: 'k', ownerId: 'o', env: 'sandbox', source: 'csv', checks: input.checks, payerKeys: input.checks.map(() => 'SBX-EVERGREEN') },
      new Date(),
      pause,
    );
    assert.ok(pause.calls >= 2 * (10_000 / 250 - 1), `paused ${pause.calls} times`);
    assert.equal(await new BatchStore(db).unfinishedRows('o'), 10_000);
    assert.equal(batch.total, 10_000);

    const monitors = new MonitorStore(db, new WebhookStore(db));
    const monitorPause = countingPause();
    const made = await monitors.createWithin(
      input.checks.slice(0, 1_000).map((c) => ({
        ownerId: 'o',
        keyId: 'k',
        env: 'sandbox' as const,
        payerKey: 'SBX-EVERGREEN',
        what: { request: c.request, reference: null },
        schedule: { appointments: ['2026-07-01'] },
        firstCheckAt: new Date(),
      })),
      5_000,
      new Date(),
      monitorPause,
    );
    assert.ok('made' in made && made.made.length === 1_000);
    assert.ok(monitorPause.calls >= 2 * (1_000 / 250 - 1), `paused ${monitorPause.calls} times`);
    assert.equal(await monitors.count('o'), 1_000);
  } finally {
    await store.cleanup();
  }
});

test('an audit record written while a transaction is open across turns is not taken into it', async () => {
  const store = await sqliteStore();
  try {
    const db = await store.open();
    const writer = new AuditWriter(db, { flushIntervalMs: 60_000 });
    const event = {
      request_id: randomUUID(),
      at: new Date().toISOString(),
      key_id: 'k',
      endpoint: 'estimate',
      payer_id: null,
      status: 200,
      error_code: null,
      latency_ms: 1,
      member_hash: null,
    };
    let written: Promise<boolean> | undefined;
    await assert.rejects(
      db.kysely.transaction().execute(async (trx) => {
        await trx
          .insertInto('batches')
          .values({ id: 'bat_x', key_id: 'k', owner_id: 'o', env: 'sandbox', source: 'csv', name: null, total: 0, created_at: event.at })
          .execute();
        written = writer.write(event);
        // Turns pass with the transaction open, as between a batch's INSERTs.
        for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
        throw new Error('rolled back');
      }),
      /rolled back/,
    );
    assert.equal(await written, true);
    const rows = await db.kysely.selectFrom('audit_events').select('request_id').execute();
    assert.deepEqual(
      rows.map((r) => r.request_id),
      [event.request_id],
      'the record outlives the rolled-back transaction',
    );
    await writer.close();
  } finally {
    await store.cleanup();
  }
});

test('rows after a header that refuses the upload are read for their errors, not kept', () => {
  const wide = Array.from({ length: 64 }, (_, i) => `column_${i + 1}`).join(',');
  const rows = Array.from({ length: 3 }, () => Array.from({ length: 64 }, (_, i) => `v${i}`).join(','));
  const text = `${wide}\n${rows.join('\n')}\n`;
  const header = (records: { cells: string[] }[]) => records.map((r) => r.cells.length);
  assert.deepEqual(header(runThrough(csvRecords(text, {}, () => false))), [64], 'only the header is kept');
  assert.deepEqual(header(runThrough(csvRecords(text, {}, () => true))), [64, 64, 64, 64]);
  // Still read: the reader's own errors, and the count of records, are those of a reading that keeps them.
  assert.throws(() => runThrough(csvRecords(`${text}"unclosed\n`, {}, () => false)), /line 5: a quoted value is not closed/);
  assert.throws(() => runThrough(csvRecords(text, { maxRecords: 3 }, () => false)), /more than 3 records/);
  // The upload is refused for its header, as when its rows were kept.
  const refused = fromCsv(text, validate);
  assert.equal(refused.ok, false);
  assert.equal(!refused.ok && refused.errors[0]!.field, 'header');
});

test('an upload read for storing (csvUpload) gives the checks and errors of a reading at once', () => {
  const tricky = [
    '\ufeffendpoint,member_id,member_first_name,member_last_name,member_dob,zip,provider_npi,session_cost',
    'estimate,10010MHNA,"Bell, Jr.",Walsh,03/14/1988,,1234567893,"1,250.00"',
    '',
    ',,,,,,,',
    'discover,,Ann,"O\'Brien",1988-03-14,10001,,',
    ' estimate , 1MHNA ,Avery,Walsh,1980-01-01,,1234567893,150',
  ].join('\r\n');
  // A line break and a doubled quote inside values: errors numbered by the spreadsheet's rows, after it.
  const quoted = `${HEADER}\n1MHNA,"Ann ""Nan""","O'Brien\nSmith",1980-01-01,1234567893,15000\n\n2MHNA,Bo,Lee,13/01/1980,1234567893,15000\n`;
  for (const text of [VALID, tricky]) {
    const whole = fromCsv(text, validate);
    const upload = runThrough(csvUpload(text, validate));
    assert.ok(whole.ok && upload.ok);
    assert.equal(upload.total, whole.checks.length);
    assert.deepEqual([...upload.checks()], whole.checks);
    // Built again each time they are asked for: nothing is kept between.
    assert.deepEqual([...upload.checks()], whole.checks);
  }
  for (const text of [INVALID, quoted, `${HEADER}\n1MHNA,Ann,Lee,1980-01-01,1234567893,15000\n"unclosed\n`, `${HEADER}\n`, `nope\n1\n`]) {
    assert.deepEqual(runThrough(csvUpload(text, validate)), fromCsv(text, validate));
  }
});

test('a batch stored from its rows one at a time (createFrom) is stored whole, or not at all when the rows miscount', async () => {
  const store = await sqliteStore();
  try {
    const db = await store.open();
    const upload = runThrough(csvUpload(VALID, validate));
    assert.ok(upload.ok);
    const rows = {
      *[Symbol.iterator]() {
        for (const check of upload.checks()) yield { check, payerKey: 'SBX-EVERGREEN' };
      },
    };
    const batches = new BatchStore(db);
    const batch = await batches.createFrom({ keyId: 'k', ownerId: 'o', env: 'sandbox', source: 'csv', total: upload.total, rows }, new Date(), countingPause());
    assert.equal(batch.total, 10_000);
    const stored = [];
    for await (const r of batches.rows(batch.id, { limit: 10_000 })) stored.push(r.request);
    assert.deepEqual(
      stored,
      [...upload.checks()].map((c) => c.request),
    );

    for (const total of [upload.total - 1, upload.total + 1, 100]) {
      await assert.rejects(batches.createFrom({ keyId: 'k', ownerId: 'p', env: 'sandbox', source: 'csv', total, rows }, new Date()), /other than its/);
    }
    assert.equal(await batches.unfinishedRows('p'), 0, 'nothing of a miscounted batch is left');
  } finally {
    await store.cleanup();
  }
});

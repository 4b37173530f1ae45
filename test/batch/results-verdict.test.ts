/**
 * The results CSV's verdict (issue 24): the console card's words for every state, the spreadsheet's
 * row numbers, and the sandbox mark on a sandbox batch's file only.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resultCsvHeader, resultCsvLine, SANDBOX_MARK } from '../../src/http/batches/batch-results-csv.ts';
import { parseCsv } from '../../src/formats/csv.ts';
import type { StoredRow } from '../../src/store/batches.ts';

const mindful = { name: 'MINDFUL BEHAVIORAL HEALTH ADMINISTRATORS', payer_id: 'SBX-MINDFUL', phone: '8005550142' };
const base = { plan_status: 'ACTIVE', mental_health_coverage: 'active', third_party_payer: null, provider_session_cost: 15000, in_network: true };

const row = (status: number, body: Record<string, unknown>, error_code: string | null = null): StoredRow => ({
  row_no: 1,
  endpoint: 'estimate',
  state: 'done',
  status,
  error_code,
  result: JSON.stringify(body),
  request: { member_id: '10010MHNA' },
});

const cells = (line: string, env = 'production') => {
  const [header, values] = parseCsv(`${resultCsvHeader(env)}\r\n${line}\r\n`).map((r) => r.cells);
  return Object.fromEntries(header!.map((h, i) => [h, values![i]]));
};

test('each state: the verdict and the price agree, a carve-out is priced only from its administrator, with its name', () => {
  const cases: [StoredRow, string, string][] = [
    [row(200, { ...base, member_obligation: 3000 }), 'Patient pays $30.00', '30.00'],
    [row(206, { ...base, member_obligation: null, error_code: 'UNKNOWN_COSTSHARE' }, 'UNKNOWN_COSTSHARE'), 'Price unknown: call the plan', ''],
    [row(200, { ...base, plan_status: 'INACTIVE', plan_end_date: '2026-06-30', member_obligation: 15000 }), 'Coverage ended: full $150.00', '150.00'],
    [row(404, { error_code: 'MEMBER_NOT_FOUND', message: 'The payer found no member' }, 'MEMBER_NOT_FOUND'), 'Not found: check the member ID', ''],
    [row(502, { error_code: 'PAYER_FAILURE', message: 'The payer did not answer' }, 'PAYER_FAILURE'), 'No answer from the payer: try again', ''],
    [
      row(200, { ...base, mental_health_coverage: 'carved_out', third_party_payer: mindful, priced_by: mindful, member_obligation: 2500 }),
      '$25.00 per Mindful Behavioral Health Administrators',
      '25.00',
    ],
    [
      row(
        206,
        { ...base, mental_health_coverage: 'carved_out', third_party_payer: mindful, member_obligation: null, error_code: 'UNKNOWN_COSTSHARE' },
        'UNKNOWN_COSTSHARE',
      ),
      'Call Mindful Behavioral Health Administrators (800) 555-0142',
      '',
    ],
  ];
  for (const [stored, verdict, pays] of cases) {
    const c = cells(resultCsvLine(stored, { source: 'csv', env: 'production', today: '2026-11-26' }));
    assert.equal(c.verdict, verdict);
    assert.ok(c.next_step, `${verdict}: a next step`);
    assert.equal(c.patient_pays_dollars ?? '', pays, verdict);
    assert.equal(c.row, '2', 'the spreadsheet row: the header is row 1');
    assert.equal(c.sandbox, undefined, 'a live file carries no sandbox mark');
  }
});

test('a sandbox batch: every line leads with the mark; pending and cancelled rows say so in words', () => {
  assert.match(resultCsvHeader('sandbox'), /^sandbox,row,verdict,next_step,/);
  const pending: StoredRow = { ...row(200, {}), state: 'pending', status: null, result: null };
  const c = cells(resultCsvLine(pending, { source: 'csv', env: 'sandbox', today: null }), 'sandbox');
  assert.equal(c.sandbox, SANDBOX_MARK);
  assert.equal(c.verdict, 'Not checked yet');
  assert.equal(
    cells(resultCsvLine({ ...pending, state: 'cancelled' }, { source: 'csv', env: 'sandbox', today: null }), 'sandbox').verdict,
    'Cancelled: not checked',
  );
  assert.doesNotMatch(resultCsvHeader('unknown'), /^sandbox/);
});

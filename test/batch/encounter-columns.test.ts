/** The encounter columns of a batch (docs/batch.md): date_of_service, procedure_code, place_of_service. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CSV_COLUMNS, fromCsv, fromJson } from '../../src/formats/batch-input.ts';
import { createCheckValidator } from '../../src/http/check-validator.ts';
import { onDay } from '../helpers/clock.ts';

const TODAY = '2026-06-15';
const validate = createCheckValidator(onDay(TODAY));
const HEADER = 'member_id,member_dob,date_of_service,procedure_code,place_of_service';

test('the three encounter fields are CSV columns', () => {
  for (const column of ['date_of_service', 'procedure_code', 'place_of_service']) assert.ok(CSV_COLUMNS.includes(column), column);
});

test('cells read as a spreadsheet writes them: US dates, and a place code that lost its leading zero', () => {
  const input = fromCsv([HEADER, '1MHNA,1980-01-01,6/22/2026,90837,2', '1MHNA,1980-01-01,2026-06-15,h0031,11', '1MHNA,1980-01-01,,,'].join('\n'), validate);
  assert.ok(input.ok, JSON.stringify(input));
  const encounter = (r: Record<string, unknown>) => ({ date: r.date_of_service, code: r.procedure_code, place: r.place_of_service });
  assert.deepEqual(
    input.checks.map((c) => encounter(c.request)),
    [
      { date: '2026-06-22', code: '90837', place: '02' },
      { date: '2026-06-15', code: 'h0031', place: '11' },
      { date: undefined, code: undefined, place: undefined },
    ],
  );
});

test('a bad shape or a date outside the window is an error of its row and field; a discover row ignores the columns', () => {
  const input = fromCsv(
    [
      `endpoint,member_first_name,member_last_name,zip,${HEADER}`,
      ',,,,1MHNA,1980-01-01,2027-01-04,90837,11',
      ',,,,1MHNA,1980-01-01,2026-06-16,9083,office',
      ',,,,1MHNA,1980-01-01,14/03/2026,,',
      'discover,Ann,Lee,10001,,1980-01-01,1999-01-01,bad,bad',
    ].join('\n'),
    validate,
  );
  assert.equal(input.ok, false);
  assert.deepEqual(!input.ok && input.errors, [
    { row: 2, field: 'date_of_service', message: 'must be from 2025-06-15 (12 months ago) through 2026-07-31 (the end of next month)' },
    { row: 3, field: 'procedure_code', message: 'must be a CPT or HCPCS code: five digits such as 90837, or a letter and four digits such as H0031' },
    { row: 3, field: 'place_of_service', message: 'must be a two-digit CMS place-of-service code such as 11 (office), 02 or 10 (telehealth)' },
    { row: 4, field: 'date_of_service', message: '"14/03/2026" reads as day/month; write dates as MM/DD/YYYY or YYYY-MM-DD' },
  ]);
});

test('JSON rows are checked by the same rules, window included', () => {
  const row = { member_id: '1MHNA', member_first_name: '', member_last_name: '', member_dob: '1980-01-01' };
  assert.ok(
    fromJson(
      { checks: [{ endpoint: 'estimate', request: { ...row, date_of_service: '2025-06-15', procedure_code: '90791', place_of_service: '02' } }] },
      validate,
    ).ok,
  );
  const late = fromJson({ checks: [{ endpoint: 'estimate', request: { ...row, date_of_service: '2025-06-14' } }] }, validate);
  assert.deepEqual(!late.ok && late.errors.map((e) => [e.row, e.field]), [[1, 'date_of_service']]);
  const unborn = fromJson({ checks: [{ endpoint: 'estimate', request: { ...row, member_dob: '2026-01-01', date_of_service: '2025-12-31' } }] }, validate);
  assert.deepEqual(!unborn.ok && unborn.errors, [{ row: 1, field: 'date_of_service', message: 'must not be before member_dob' }]);
});

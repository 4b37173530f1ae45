/**
 * The whole sandbox catalog through the server, every member on each of its endpoints, logging
 * at the most verbose level; then no member name, ID or date of birth may appear in the logs,
 * nor in the audit trail.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { loadConfig } from '../../src/server/config.ts';
import { startRuntime } from '../../src/server/runtime.ts';
import type { OperationName } from '../../src/domain/schemas/requests.ts';
import { CATALOG } from '../../src/sandbox/catalog.ts';
import { sandboxMemberTable, type SandboxMemberRow } from '../../src/sandbox/member-table.ts';
import { sqliteStore } from '../support/stores.ts';
import { NO_SHEDDING } from '../support/no-shedding.ts';

/** Names and DOB for the catalog's suffix scenarios, which take any: distinctive, so a leak would show. */
const FREE_PERSON = { first_name: 'Quillon', last_name: 'Marchbanks', dob: '1971-07-19' };

function bodyFor(row: SandboxMemberRow, endpoint: OperationName): Record<string, unknown> {
  const first = row.first_name ?? FREE_PERSON.first_name;
  const last = row.last_name ?? FREE_PERSON.last_name;
  const dob = row.dob ?? FREE_PERSON.dob;
  const zip = CATALOG.members.find((m) => m.member_id === row.member_id && m.person.first_name === row.first_name)?.address?.zip ?? '';
  const payer = row.payer_id ? { payer_id: row.payer_id } : {};
  switch (endpoint) {
    case 'estimate':
      return {
        member_id: row.member_id,
        member_first_name: first,
        member_last_name: last,
        member_dob: dob,
        ...payer,
        provider_npi: '1234567893',
        provider_session_cost: '15000',
      };
    case 'discover':
      return { member_first_name: first, member_last_name: last, member_dob: dob, zip, payer_id: row.payer_id };
    case 'scan':
      return { member_first_name: first, member_last_name: last, member_dob: dob, zip };
    case 'medicaid':
      return {
        member_id: row.member_id,
        member_first_name: first,
        member_last_name: last,
        member_dob: dob,
        ...payer,
        ...(row.patient_state ? { patient_state: row.patient_state } : {}),
      };
  }
}

/** Every way a member's data could be written: as sent, as X12 writes it (upper case, DOB as CCYYMMDD). */
function memberData(): string[] {
  const people = [
    FREE_PERSON,
    ...CATALOG.members.flatMap((m) => [m.person, ...(m.subscriber ? [m.subscriber] : []), ...(m.payer_record ? [m.payer_record] : [])]),
  ];
  const values = new Set<string>();
  for (const p of people) {
    for (const v of [p.first_name, p.last_name]) if (v) values.add(v).add(v.toUpperCase());
    if (p.dob) values.add(p.dob).add(p.dob.replaceAll('-', ''));
  }
  for (const m of CATALOG.members) {
    values.add(m.member_id);
    if (m.subscriber) values.add(m.subscriber.member_id);
  }
  for (const row of sandboxMemberTable()) values.add(row.member_id);
  return [...values];
}

test('no member names, IDs or dates of birth in logs or audit records after the whole catalog', async (t) => {
  const store = await sqliteStore();
  t.after(() => store.cleanup());
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const runtime = await startRuntime(loadConfig({ ...NO_SHEDDING, COVERAGE_DATA_DIR: store.env.COVERAGE_DATA_DIR }), { logStream, logLevel: 'trace' });
  let closed = false;
  t.after(async () => {
    if (!closed) await runtime.close();
  });
  const { secret } = await runtime.keys.create({ name: 'privacy', env: 'sandbox', rate_limit_per_minute: 100_000 });

  // Each member takes its scenario's road (the catalog's expected outcome), rejections and payer faults included.
  const outcomes: string[] = [];
  const unexpected: string[] = [];
  for (const row of sandboxMemberTable()) {
    for (const endpoint of row.endpoints) {
      const res = await runtime.app.inject({ method: 'POST', url: `/v1/${endpoint}`, headers: { apikey: secret }, payload: bodyFor(row, endpoint) });
      const outcome = `${res.statusCode} ${res.json<{ error_code?: string }>().error_code ?? ''}`.trim();
      const expected = row.expectations[endpoint] ?? { status: row.expected_status, error_code: row.expected_error_code };
      outcomes.push(outcome);
      if (outcome !== `${expected.status} ${expected.error_code ?? ''}`.trim()) unexpected.push(`${row.scenario} on ${endpoint}: ${outcome}`);
    }
  }
  assert.ok(outcomes.length > 40);
  assert.deepEqual(unexpected, []);

  await runtime.audit.flush();
  const audit = JSON.stringify(await runtime.db.kysely.selectFrom('audit_events').selectAll().execute());
  await runtime.close();
  closed = true;
  const logs = lines.join('');
  assert.ok(lines.length >= outcomes.length, 'a log line per request at least');

  const data = memberData();
  assert.deepEqual(
    data.filter((v) => logs.includes(v)),
    [],
    'member data in the logs',
  );
  assert.deepEqual(
    data.filter((v) => audit.includes(v)),
    [],
    'member data in the audit trail',
  );
});

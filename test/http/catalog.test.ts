/** Every catalog member on every endpoint it serves, and every docs/interface.md 7.4 suffix, over HTTP. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { OperationName } from '../../src/domain/schemas/requests.ts';
import { CATALOG } from '../../src/sandbox/catalog.ts';
import { sandboxMemberTable } from '../../src/sandbox/member-table.ts';
import { requestFor, VALID_NPI } from '../helpers/requests.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const named = sandboxMemberTable().filter((m) => m.first_name !== null);

function assertShape(endpoint: OperationName, body: any, status: number) {
  if (status >= 300) {
    assert.equal(typeof body.message, 'string');
    assert.match(body.request_id, /^[0-9a-f-]{36}$/);
    return;
  }
  assert.equal(typeof body.payer_id, 'string');
  assert.ok(['ACTIVE', 'INACTIVE', 'ACTIVE_AT_RISK'].includes(body.plan_status));
  assert.ok(Array.isArray(body.alerts));
  if (endpoint === 'estimate') {
    assert.ok('member_obligation' in body && 'benefit_structure' in body && 'reset_benefits_status' in body);
  } else {
    // docs/interface.md 1.2: discover, scan and medicaid answer without the financial fields.
    assert.ok(!('member_obligation' in body) && !('copayment' in body) && !('remaining_deductible' in body));
  }
}

describe('named members', () => {
  for (const m of named) {
    for (const [endpoint, expected] of Object.entries(m.expectations) as [OperationName, { status: number; error_code: string | null }][]) {
      test(`${m.scenario} ${m.member_id} on ${endpoint} -> ${expected.status} ${expected.error_code ?? ''}`, async () => {
        const res = await server.post(`/v1/${endpoint}`, requestFor(endpoint, m));
        assert.equal(res.status, expected.status, JSON.stringify(res.body));
        assert.equal(res.body.error_code ?? null, expected.error_code);
        assertShape(endpoint, res.body, res.status);
        if (res.status < 300) {
          assert.equal(res.body.demographics.member_id, m.member_id);
          assert.equal(res.body.demographics.dob !== null, true);
        }
      });
    }
  }
});

describe('docs/interface.md 7.4: suffixes select their scenario whatever the digits and names', () => {
  for (const s of CATALOG.suffixes) {
    const prefixes = 'byPrefix' in s.expect ? Object.keys(s.expect.byPrefix) : [''];
    for (const p of prefixes) {
      const expected = 'byPrefix' in s.expect ? s.expect.byPrefix[p]! : s.expect;
      for (const digits of [`${p || '1'}`, `${p || '4'}8213`]) {
        const id = `${digits}MH${s.suffix}`;
        test(`${id} -> ${expected.status} ${expected.error_code ?? ''}`, async () => {
          const res = await server.post('/v1/estimate', {
            member_id: id,
            member_first_name: 'Any',
            member_last_name: 'Body',
            member_dob: '1990-01-01',
            provider_npi: VALID_NPI,
            provider_session_cost: 20000,
          });
          assert.equal(res.status, expected.status, JSON.stringify(res.body));
          assert.equal(res.body.error_code ?? null, expected.error_code);
          if (res.status < 300) {
            assert.equal(res.body.demographics.member_id, id);
            assert.equal(res.body.demographics.first_name, 'ANY');
          }
        });
      }
    }
  }

  test('EXP is INACTIVE, EXS is ACTIVE_AT_RISK, NA is ACTIVE', async () => {
    const status = async (id: string) =>
      (await server.post('/v1/estimate', { member_id: id, member_first_name: '', member_last_name: '', member_dob: '1990-01-01' })).body.plan_status;
    assert.equal(await status('7MHEXP'), 'INACTIVE');
    assert.equal(await status('7MHEXS'), 'ACTIVE_AT_RISK');
    assert.equal(await status('7MHNA'), 'ACTIVE');
  });

  test('lower-case generated IDs select the same scenario', async () => {
    const res = await server.post('/v1/estimate', { member_id: '55mhuc', member_first_name: '', member_last_name: '', member_dob: '1990-01-01' });
    assert.equal(res.status, 206);
    assert.equal(res.body.error_code, 'UNKNOWN_COSTSHARE');
  });
});

test('GET /v1/sandbox/members lists every named member and every suffix', async () => {
  const res = await server.get('/v1/sandbox/members');
  assert.equal(res.status, 200);
  const ids = new Set(res.body.members.map((m: { member_id: string }) => m.member_id));
  for (const m of CATALOG.members) assert.ok(ids.has(m.member_id), m.member_id);
  for (const s of CATALOG.suffixes)
    assert.ok(
      [...ids].some((id) => String(id).endsWith(`MH${s.suffix}`)),
      s.suffix,
    );
  for (const row of res.body.members) {
    for (const f of [
      'member_id',
      'first_name',
      'last_name',
      'dob',
      'payer_id',
      'patient_state',
      'scenario',
      'endpoints',
      'expected_status',
      'expected_error_code',
    ]) {
      assert.ok(f in row, `${row.member_id} lacks ${f}`);
    }
  }
});

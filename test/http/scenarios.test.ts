/** The behaviours and rules of docs/interface.md (sections 1, 2 and 7), checked field by field over HTTP. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { VALID_NPI } from '../helpers/requests.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const byId = (member_id: string, first: string, last: string, dob: string, extra: Record<string, unknown> = {}) =>
  server.post('/v1/estimate', {
    member_id,
    member_first_name: first,
    member_last_name: last,
    member_dob: dob,
    provider_npi: VALID_NPI,
    provider_session_cost: '15000',
    ...extra,
  });
const codes = (body: any) => body.alerts.map((a: { code: string }) => a.code);

describe('estimate scenario groups (docs/interface.md 7.3)', () => {
  test('no alerts, in network: $30 copay on a $150 session', async () => {
    const { status, body } = await byId('10010MHNA', 'Avery', 'Walsh', '1988-03-14');
    assert.equal(status, 200);
    assert.deepEqual(body.alerts, []);
    assert.equal(body.plan_status, 'ACTIVE');
    assert.equal(body.benefit_structure, 'Copay, no deductible, with OOP Max');
    assert.equal(body.copayment, 3000);
    assert.equal(body.member_obligation, 3000);
    assert.equal(body.payer_obligation, 12000);
    assert.equal(body.remaining_oop_max, 455000);
  });

  test('out of network selects the out-of-network benefits', async () => {
    const { body } = await byId('10010MHNA', 'Avery', 'Walsh', '1988-03-14', { in_network: false });
    assert.equal(body.in_network, false);
    assert.equal(body.coinsurance, 40);
    assert.equal(body.benefit_structure, 'Coinsurance after deductible, with OOP Max');
    assert.equal(body.member_obligation, 15000, 'deductible of $3,000 unmet: the member pays the whole session');
  });

  test('demographic mismatch: matched by member ID, the payer values returned', async () => {
    const { status, body } = await byId('10030MHDM', 'Katherine', 'Miller', '1984-04-04');
    assert.equal(status, 200);
    const alert = body.alerts.find((a: any) => a.code === 'DEMOGRAPHIC_MISMATCH');
    assert.ok(alert);
    assert.equal(alert.payer_values.first_name, 'KATHRYN');
    assert.equal(alert.payer_values.last_name, 'MILLER-HAYES');
  });

  test('demographic mismatch with payer correction', async () => {
    const { body } = await byId('10031MHDM', 'Jon', 'Baker', '1970-10-10');
    const alert = body.alerts.find((a: any) => a.code === 'PAYER_CORRECTED');
    assert.ok(alert, JSON.stringify(body.alerts));
    assert.equal(alert.payer_values.first_name, 'JONATHAN');
    assert.equal(alert.payer_values.dob, '1970-10-01');
  });

  test('carve-out: the administrator is named and its benefits answer the estimate', async () => {
    const { status, body } = await byId('10040MHCA', 'Maya', 'Goldberg', '1993-03-19');
    assert.equal(status, 200);
    assert.equal(body.mental_health_coverage, 'carved_out');
    assert.equal(body.third_party_payer.name, 'MINDFUL BEHAVIORAL HEALTH ADMINISTRATORS');
    assert.equal(body.third_party_payer.phone, '8005550142');
    assert.ok(codes(body).includes('CARVE_OUT_DETECTED'));
    assert.equal(body.copayment, 2500);
    assert.equal(body.member_obligation, 2500);
  });

  test('provider not recognized', async () => {
    const { status, body } = await byId('PNR40001', 'Caleb', 'Foster', '1988-08-18');
    assert.equal(status, 400);
    assert.equal(body.error_code, 'PROVIDER_NOT_RECOGNIZED');
  });
});

describe('behaviours of docs/interface.md section 2', () => {
  test('additional policy to coordinate with', async () => {
    const { body } = await byId('10050MHSP', 'Victor', 'Huang', '1968-12-24');
    assert.equal(body.additional_policy.length, 1);
    assert.equal(body.additional_policy[0].payer_name, 'HARBOR MUTUAL INSURANCE');
    assert.equal(body.additional_policy[0].coordination, 'secondary');
    assert.ok(codes(body).includes('ADDITIONAL_POLICY'));
  });

  test('utilization manager', async () => {
    const { body } = await byId('10025MHDM', 'Julia', 'Santos', '1989-05-30');
    assert.equal(body.utilization_manager.name, 'CLEARPATH UTILIZATION REVIEW');
    assert.ok(codes(body).includes('UTILIZATION_MANAGEMENT'));
  });

  test('marketplace, high-deductible and BlueCard flags', async () => {
    assert.equal((await byId('10019MHDM', 'Rosa', 'Delgado', '1991-02-17')).body.is_marketplace, true);
    const hdhp = (await byId('10017MHDM', 'Theo', 'Nakamura', '1996-04-25')).body;
    assert.equal(hdhp.is_hdhp, true);
    assert.equal(hdhp.member_obligation, 15000, 'the $3,300 deductible is unmet');
    assert.equal(hdhp.remaining_sessions_before_deductible, 22);
    assert.equal((await byId('XOF10020MHDM', 'Connor', 'Byrne', '1982-06-06')).body.is_bluecard, true);
  });

  test('telehealth cost differs from in person', async () => {
    const { body } = await byId('10018MHDM', 'Lena', 'Fischer', '1987-08-12');
    assert.equal(body.copayment, 3000);
    assert.equal(body.telehealth.copayment, 1000);
    assert.equal(body.telehealth.member_obligation, 1000);
  });

  test('missing address', async () => {
    const { body } = await byId('10022MHDM', 'Oliver', 'Grant', '1980-03-03');
    assert.equal(body.demographics.address, null);
    assert.ok(codes(body).includes('MISSING_ADDRESS'));
  });

  test('primary care provider with and without organization', async () => {
    const withOrg = (await byId('10023MHDM', 'Nadia', 'Petrov', '1986-07-07')).body.pcp;
    assert.equal(withOrg.last_name, 'SHAH');
    assert.equal(withOrg.organization_name, 'MIDTOWN PRIMARY CARE ASSOCIATES');
    const without = (await byId('10024MHDM', 'Felix', 'Moreau', '1977-01-22')).body.pcp;
    assert.equal(without.last_name, 'REID');
    assert.equal(without.organization_name, null);
  });

  test('unknown totals are null, never 0, while remainings are known', async () => {
    const { status, body } = await byId('10015MHDM', 'Samuel', 'Okafor', '1975-05-18');
    assert.equal(status, 200);
    assert.equal(body.deductible, null);
    assert.equal(body.oop_max, null);
    assert.equal(body.remaining_deductible, 50000);
    assert.equal(body.remaining_oop_max, 300000);
  });

  test('dependent child on a parent plan', async () => {
    const { body } = await byId('10026MHDM', 'Ethan', 'Walsh', '2012-09-14');
    assert.equal(body.relationship_to_subscriber, 'child');
    assert.equal(body.demographics.first_name, 'ETHAN');
    assert.equal(body.subscriber_demographics.first_name, 'AVERY');
  });

  test('partial results keep known fields and null the unknown', async () => {
    const uc = await byId('10090MHUC', 'Adrian', 'Cole', '1986-11-19');
    assert.equal(uc.status, 206);
    assert.equal(uc.body.copayment, null);
    assert.equal(uc.body.member_obligation, null);
    assert.equal(uc.body.deductible, 150000);
    const ua = await byId('10091MHUA', 'Bianca', 'Ferreira', '1990-12-12');
    assert.equal(ua.status, 206);
    assert.equal(ua.body.error_code, 'UNKNOWN_REMAININGS');
    assert.equal(ua.body.coinsurance, 20);
    assert.equal(ua.body.remaining_deductible, null);
    assert.equal(ua.body.deductible, 150000);
  });
});

describe('cost estimates over HTTP (issue 3)', () => {
  const cases: [string, string, string, string, string, number][] = [
    ['coinsurance after deductible, deductible unmet', '10011MHDM', 'Marcus', 'Bell', '1979-11-02', 15000],
    ['deductible met: 20 % of $150', '10013MHDM', 'Diego', 'Alvarez', '1985-01-30', 3000],
    ['deductible and OOP met', '10014MHDM', 'Hannah', 'Cho', '1990-09-09', 0],
    ['copay after deductible, deductible above the session cost', '10012MHDM', 'Priya', 'Raman', '1992-07-21', 15000],
  ];
  for (const [name, id, first, last, dob, member] of cases) {
    test(name, async () => {
      const { body } = await byId(id, first, last, dob);
      assert.equal(body.member_obligation, member);
      assert.equal(body.member_obligation + body.payer_obligation, 15000);
    });
  }
  test('copay after deductible, deductible partly covering the session: D + copay on the rest', async () => {
    const { body } = await byId('10012MHDM', 'Priya', 'Raman', '1992-07-21', { provider_session_cost: 50000 });
    assert.equal(body.member_obligation, 45000 + 4000);
    assert.equal(body.post_deductible_member_obligation, 4000);
    assert.equal(body.post_oop_max_member_obligation, 0);
  });
  test('without a session cost the obligations are null and the benefits returned', async () => {
    const { status, body } = await server.post('/v1/estimate', {
      member_id: '10010MHNA',
      member_first_name: 'Avery',
      member_last_name: 'Walsh',
      member_dob: '1988-03-14',
    });
    assert.equal(status, 200);
    assert.equal(body.member_obligation, null);
    assert.equal(body.payer_obligation, null);
    assert.equal(body.copayment, 3000);
  });
});

describe('plan-year reset variants (docs/estimates.md section 11)', () => {
  const resets: [string, string, string, string, string, string[]][] = [
    ['10110MHDM', 'Elise', 'Hart', '1984-02-02', 'DETECTED_NO_ACTION_REQUIRED', []],
    ['10111MHDM', 'Raj', 'Malhotra', '1978-03-03', 'DETECTED_ACTION_REQUIRED', ['copay']],
    ['10112MHDM', 'Chloe', 'Dubois', '1991-04-04', 'DETECTED_ACTION_REQUIRED', ['coinsurance']],
    ['10113MHDM', 'Mateo', 'Silva', '1987-05-05', 'DETECTED_ACTION_REQUIRED', ['member_id']],
    ['10114MHDM', 'Ava', 'Lindgren', '1993-06-06', 'DETECTED_ACTION_REQUIRED', ['oop_max']],
    ['10115MHDM', 'Noah', 'Bergstrom', '1976-07-07', 'DETECTED_ACTION_REQUIRED', ['copay', 'deductible', 'oop_max']],
  ];
  for (const [id, first, last, dob, status, changes] of resets) {
    test(`${id}: ${status} ${changes.join('+')}`, async () => {
      const { body } = await byId(id, first, last, dob);
      assert.equal(body.plan_reset_soon, true);
      assert.equal(body.reset_benefits_status, status);
      assert.deepEqual([...body.reset_benefits.changes].sort(), [...changes].sort());
      assert.ok(codes(body).includes('PLAN_RESET_SOON'));
    });
  }
  test('a mid-year plan has no reset detected', async () => {
    const { body } = await byId('10010MHNA', 'Avery', 'Walsh', '1988-03-14');
    assert.equal(body.plan_reset_soon, false);
    assert.equal(body.reset_benefits_status, 'NOT_DETECTED');
    assert.equal(body.reset_benefits, null);
  });
});

describe('government plans', () => {
  test('QMB and managed Medicaid on the medicaid endpoint', async () => {
    const qmb = await server.post('/v1/medicaid', {
      member_id: '10073MHOMCD',
      member_first_name: 'Walter',
      member_last_name: 'Pruitt',
      member_dob: '1949-09-27',
      patient_state: 'FL',
    });
    assert.equal(qmb.status, 200);
    assert.equal(qmb.body.qmb_status, true);
    assert.equal(qmb.body.insurance_type, 'qmb');
    const mm = await server.post('/v1/medicaid', {
      member_id: '10072MHMM',
      member_first_name: 'Keisha',
      member_last_name: 'Daniels',
      member_dob: '1997-04-14',
      patient_state: 'TX',
    });
    assert.equal(mm.body.managed_care, true);
    assert.equal(mm.body.pcp.organization_name, 'EASTSIDE FAMILY HEALTH CENTER');
    assert.equal(mm.body.patient_state, 'TX');
  });
  test('state Medicaid inactive', async () => {
    const res = await server.post('/v1/medicaid', {
      member_id: '10071MHOMCD',
      member_first_name: 'Tanya',
      member_last_name: 'Reyes',
      member_dob: '2001-01-05',
      patient_state: 'CA',
    });
    assert.equal(res.body.plan_status, 'INACTIVE');
  });
  test('Medicare, Medicare Advantage and Medicare supplemental', async () => {
    assert.equal((await byId('10060MHOMCR', 'Harold', 'Jennings', '1950-02-11')).body.insurance_type, 'medicare');
    assert.equal((await byId('10062MHMA', 'Beatrice', 'Lowe', '1952-08-08')).body.insurance_type, 'medicare_advantage');
    const supp = (await byId('10061MHOMCR', 'Dorothy', 'Klein', '1947-06-30')).body;
    assert.equal(supp.additional_policy[0].coordination, 'secondary');
  });
  test('a commercial member on the medicaid endpoint is not found there', async () => {
    const res = await server.post('/v1/medicaid', {
      member_id: '3MHNA',
      member_first_name: 'A',
      member_last_name: 'B',
      member_dob: '1990-01-01',
      patient_state: 'NY',
    });
    assert.equal(res.status, 404);
    assert.equal(res.body.error_code, 'MEMBER_NOT_FOUND');
  });
  test('a state with no connected program is not supported; a named payer works instead of a state', async () => {
    const body = { member_id: '10070MHOMCD', member_first_name: 'Luis', member_last_name: 'Herrera', member_dob: '1999-11-11' };
    const viaPayer = await server.post('/v1/medicaid', { ...body, payer_id: 'SBX-MCD-NY' });
    assert.equal(viaPayer.status, 200);
    assert.equal(viaPayer.body.patient_state, 'NY');
  });
});

describe('matching rules (docs/interface.md 1.1, 7.1 and 7.2)', () => {
  test('discover and scan match first + last name + DOB case-insensitively', async () => {
    const d = await server.post('/v1/discover', {
      member_first_name: 'aVeRy',
      member_last_name: 'WALSH',
      member_dob: '1988-03-14',
      zip: '',
      payer_id: 'SBX-EVERGREEN',
    });
    assert.equal(d.status, 200);
    assert.equal(d.body.demographics.member_id, '10010MHNA');
    const s = await server.post('/v1/scan', { member_first_name: 'avery', member_last_name: 'walsh', member_dob: '1988-03-14', zip: '10001' });
    assert.equal(s.status, 200);
    assert.equal(s.body.payer_id, 'SBX-EVERGREEN');
    assert.ok(s.body.payers_checked >= 5);
  });
  test('a different DOB does not match by name', async () => {
    const d = await server.post('/v1/discover', { member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-15', zip: '', payer_id: '' });
    assert.equal(d.status, 404);
    assert.equal(d.body.error_code, 'MEMBER_NOT_FOUND');
  });
  test("a blank payer_id accepts any payer; a named payer must be the member's", async () => {
    const any = await byId('10016MHDM', 'Grace', 'Lindqvist', '1983-12-01', { payer_id: '' });
    assert.equal(any.status, 200);
    assert.equal(any.body.payer_id, 'SBX-HARBOR');
    const wrong = await byId('10016MHDM', 'Grace', 'Lindqvist', '1983-12-01', { payer_id: 'SBX-EVERGREEN' });
    assert.equal(wrong.status, 404);
  });
  test('an unknown payer is not supported', async () => {
    const res = await byId('10010MHNA', 'Avery', 'Walsh', '1988-03-14', { payer_id: 'NOPE-PAYER' });
    assert.equal(res.status, 400);
    assert.equal(res.body.error_code, 'PAYER_NOT_SUPPORTED');
  });
  test('error scenarios with blank names match on member ID on estimate only', async () => {
    const est = await server.post('/v1/estimate', { member_id: '10100MHMNF', member_first_name: '', member_last_name: '', member_dob: '1983-03-23' });
    assert.equal(est.status, 404);
    assert.equal(est.body.error_code, 'MEMBER_NOT_FOUND');
    const med = await server.post('/v1/medicaid', {
      member_id: '10100MHMNF',
      member_first_name: '',
      member_last_name: '',
      member_dob: '1983-03-23',
      patient_state: 'NY',
    });
    assert.equal(med.status, 400);
    assert.equal(med.body.error_code, 'INVALID_REQUEST');
  });
  test('discover returns a thinner payload than estimate for the same member', async () => {
    const est = await byId('10010MHNA', 'Avery', 'Walsh', '1988-03-14');
    const dis = await server.post('/v1/discover', { member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14', zip: '', payer_id: '' });
    assert.ok(Object.keys(dis.body).length < Object.keys(est.body).length);
    for (const k of Object.keys(dis.body)) assert.ok(k in est.body, k);
  });
  test('discover against a payer that does not answer searches is not supported', async () => {
    const res = await server.post('/v1/discover', {
      member_first_name: 'Luis',
      member_last_name: 'Herrera',
      member_dob: '1999-11-11',
      zip: '',
      payer_id: 'SBX-MCD-NY',
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.error_code, 'PAYER_NOT_SUPPORTED');
  });
  test('the payer throttling a discover gives 429 with Retry-After', async () => {
    const res = await server.post('/v1/discover', {
      member_first_name: 'Iris',
      member_last_name: 'Novak',
      member_dob: '1979-05-05',
      zip: '',
      payer_id: 'SBX-HARBOR',
    });
    assert.equal(res.status, 429);
    assert.equal(res.body.error_code, 'TOO_MANY_REQUESTS');
    assert.ok(Number(res.headers.get('retry-after')) > 0);
  });
});

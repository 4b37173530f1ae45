/** What each JSON connector sends of the encounter, as its vendor documents it (docs/going-live.md). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Inquiry } from '../../src/domain/inquiry.ts';
import { coverageForm } from '../../src/payers/vendors/availity.ts';
import { requestFromInquiry } from '../../src/payers/vendors/eligibility-v3.ts';

const inquiry: Inquiry = {
  trace_number: 'T1',
  payer: { id: '60054', name: null },
  provider: { npi: '1999999984', first_name: null, last_name: null, organization_name: 'HAPPY MIND CLINIC' },
  subscriber: { member_id: 'W123', first_name: 'JANE', last_name: 'DOE', dob: '1990-01-31', zip: null },
  dependent: null,
  service_types: ['MH', '30'],
  date: '2026-12-03',
};

test('Stedi and Optum (eligibility v3): encounter dateOfService, serviceTypeCodes, procedureCode with HC, industryCode the place', () => {
  const body = requestFromInquiry({ ...inquiry, procedure_code: '90837', place_of_service: '10' }, '60054', '000000001');
  assert.deepEqual(body.encounter, {
    serviceTypeCodes: ['MH', '30'],
    dateOfService: '20261203',
    procedureCode: '90837',
    productOrServiceIDQualifier: 'HC',
    industryCode: '10',
  });
  const plain = requestFromInquiry({ ...inquiry, procedure_code: null, place_of_service: null }, '60054', '000000001');
  assert.deepEqual(plain.encounter, { serviceTypeCodes: ['MH', '30'], dateOfService: '20261203' });
  assert.deepEqual(requestFromInquiry(inquiry, '60054', '000000001'), plain, 'absent and null send the same');
});

test('Availity coverages: asOfDate, serviceType, procedureCode and placeOfService form fields', () => {
  const form = coverageForm({ ...inquiry, procedure_code: 'H0031', place_of_service: '02' }, 'AETNA');
  assert.equal(form.asOfDate, '2026-12-03');
  assert.equal(form.serviceType, 'MH');
  assert.equal(form.procedureCode, 'H0031');
  assert.equal(form.placeOfService, '02');
  const plain = coverageForm({ ...inquiry, procedure_code: null }, 'AETNA');
  assert.equal('procedureCode' in plain || 'placeOfService' in plain, false);
});

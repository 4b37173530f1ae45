/** A complete Good Faith Estimate request (every 45 CFR 149.610(c) element), for the domain, HTTP and console tests. */
import type { GoodFaithEstimateRequest } from '../../src/domain/schemas/good-faith-estimates.ts';
import { VALID_NPI } from './requests.ts';

export const CO_PROVIDER_NPI = '1987654328';

export const DISPUTE_NOTICE =
  'If you are billed for more than this Good Faith Estimate, you have the right to dispute the bill. You may contact the provider to let them know the billed charges are higher than the estimate, ask them to update the bill, or ask whether financial help is available. You may also start a dispute resolution process with the U.S. Department of Health and Human Services (HHS) if your bill is $400 or more above this estimate for any one provider, within 120 calendar days of the date on the bill. Learn how at www.cms.gov/nosurprises or call 1-800-985-3059. Starting a dispute will not affect the quality of the care you receive.';

export function completeGfe(): GoodFaithEstimateRequest {
  return {
    client: { first_name: 'Avery', last_name: 'Walsh', dob: '1988-03-14' },
    primary_service: { description: 'Weekly individual therapy sessions (psychotherapy, 53 minutes)', scheduled_date: '2026-07-06' },
    scheduled_on: '2026-06-15',
    period_of_care: { start: '2026-07-06', end: '2026-12-28' },
    diagnosis_codes: ['F41.1'],
    convening_provider: {
      name: 'North Clinic Counseling',
      npi: VALID_NPI,
      tin: '12-3456789',
      locations: [{ office: 'Main Street office', address: '12 Main St, Springfield', state: 'IL' }],
      services: [
        { code: '90791', description: 'Intake assessment', quantity: 1, charge_cents: 20000 },
        { code: '90837', description: 'Therapy session, 53 minutes', quantity: 24, charge_cents: 15000 },
      ],
    },
    co_providers: [
      {
        name: 'Dr. Lee Psychiatry',
        npi: CO_PROVIDER_NPI,
        tin: '98-7654321',
        locations: [{ office: 'Telehealth', state: 'IL' }],
        services: [{ code: '99214', description: 'Medication review', quantity: 2, charge_cents: 18000 }],
      },
    ],
    separate_scheduling: {
      items: [{ description: 'Psychological testing, if recommended', code: '96130' }],
      instructions: 'Ask the front desk for a separate Good Faith Estimate when testing is scheduled.',
    },
    notices: {
      additional_services:
        'Your provider may recommend other services as part of your care. Those must be scheduled or asked for separately and are not part of this estimate.',
      estimate_only: 'This is only an estimate of the services reasonably expected when it was written. The actual services or charges may differ.',
      dispute_rights: DISPUTE_NOTICE,
      not_a_contract: 'This estimate is not a contract. It does not require you to get these services from any of the providers listed.',
    },
  };
}

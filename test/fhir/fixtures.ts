/** FHIR request bodies for the FHIR door's tests: a CoverageEligibilityRequest with its resources contained. */
import type { Bundle, CoverageEligibilityRequest } from '@medplum/fhirtypes';
import { VALID_NPI } from '../helpers/requests.ts';

export interface Member {
  member_id?: string;
  first: string;
  last: string;
  dob: string;
  zip?: string;
  payer_id?: string;
}

export const AVERY: Member = { member_id: '10010MHNA', first: 'Avery', last: 'Walsh', dob: '1988-03-14', payer_id: 'SBX-EVERGREEN', zip: '10001' };

export function eligibilityRequest(
  member: Member,
  options: { purpose?: CoverageEligibilityRequest['purpose']; price?: number; cpt?: string; servicedDate?: string; id?: string } = {},
): CoverageEligibilityRequest {
  return {
    resourceType: 'CoverageEligibilityRequest',
    ...(options.id ? { id: options.id } : {}),
    contained: [
      {
        resourceType: 'Patient',
        id: 'patient',
        name: [{ given: [member.first], family: member.last }],
        birthDate: member.dob,
        ...(member.zip ? { address: [{ postalCode: member.zip }] } : {}),
      },
      ...(member.payer_id ? [{ resourceType: 'Organization' as const, id: 'insurer', identifier: [{ value: member.payer_id }], name: 'Insurer' }] : []),
      ...(member.member_id
        ? [
            {
              resourceType: 'Coverage' as const,
              id: 'coverage',
              status: 'active' as const,
              subscriberId: member.member_id,
              beneficiary: { reference: '#patient' },
              payor: [member.payer_id ? { reference: '#insurer' } : { display: 'Unknown payer' }],
            },
          ]
        : []),
      {
        resourceType: 'Practitioner',
        id: 'practitioner',
        identifier: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: VALID_NPI }],
        name: [{ given: ['Dana'], family: 'Reyes' }],
      },
    ],
    status: 'active',
    purpose: options.purpose ?? ['benefits'],
    patient: { reference: '#patient' },
    created: '2026-06-15',
    provider: { reference: '#practitioner' },
    insurer: member.payer_id ? { reference: '#insurer' } : { display: 'Unknown' },
    ...(options.servicedDate ? { servicedDate: options.servicedDate } : {}),
    ...(member.member_id ? { insurance: [{ focal: true, coverage: { reference: '#coverage' } }] } : {}),
    ...(options.price !== undefined || options.cpt
      ? {
          item: [
            {
              category: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/ex-benefitcategory', code: 'MH' }] },
              ...(options.cpt ? { productOrService: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: options.cpt }] } } : {}),
              ...(options.price !== undefined ? { unitPrice: { value: options.price, currency: 'USD' } } : {}),
            },
          ],
        }
      : {}),
  };
}

export function bundleOf(...requests: CoverageEligibilityRequest[]): Bundle {
  return {
    resourceType: 'Bundle',
    type: 'batch',
    entry: requests.map((resource, i) => ({
      fullUrl: `urn:uuid:00000000-0000-4000-8000-00000000000${i}`,
      resource,
      request: { method: 'POST', url: 'CoverageEligibilityRequest/$submit' },
    })),
  };
}

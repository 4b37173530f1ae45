/**
 * A Medplum bot (https://www.medplum.com/docs/bots) that checks a Coverage with coverage-service's
 * FHIR door and stores the answer: deploy it with a Subscription on Coverage, or run it on demand
 * with the Coverage as input. docs/fhir.md explains each element it sends and receives.
 *
 * Bot secrets: COVERAGE_URL (e.g. https://coverage.example.org) and COVERAGE_API_KEY.
 * Optional: PROVIDER_NPI (the billing practitioner's NPI) and SESSION_PRICE (dollars, e.g. "150.00").
 *
 * It imports nothing at run time: `medplum` is the MedplumClient Medplum passes to every bot, and
 * only its readReference and createResource are used. The types are erased.
 */
import type {
  Coverage,
  CoverageEligibilityRequest,
  CoverageEligibilityResponse,
  OperationOutcome,
  Organization,
  Patient,
  Reference,
  Resource,
} from '@medplum/fhirtypes';

/** What the bot uses of MedplumClient. */
export interface MedplumLike {
  readReference<T extends Resource>(reference: Reference<T>): Promise<T>;
  createResource<T extends Resource>(resource: T): Promise<T>;
}

/** What the bot uses of Medplum's BotEvent. */
export interface BotEventLike {
  input: Coverage;
  secrets: Record<string, { valueString?: string } | undefined>;
}

const secret = (event: BotEventLike, name: string) => event.secrets[name]?.valueString;

/** The Coverage's Patient and payer contained in a CoverageEligibilityRequest, as the FHIR door reads them. */
function eligibilityRequest(
  coverage: Coverage,
  patient: Patient,
  payer: Organization | null,
  npi: string | undefined,
  price: string | undefined,
): CoverageEligibilityRequest {
  const contained: Resource[] = [
    { ...patient, id: 'patient' },
    {
      ...coverage,
      id: 'coverage',
      beneficiary: { reference: '#patient' },
      payor: [payer ? { reference: '#payer' } : (coverage.payor[0] ?? { display: 'Unknown payer' })],
    },
    ...(payer ? [{ ...payer, id: 'payer' }] : []),
    ...(npi ? [{ resourceType: 'Practitioner' as const, id: 'practitioner', identifier: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: npi }] }] : []),
  ];
  return {
    resourceType: 'CoverageEligibilityRequest',
    contained: contained.map(({ meta: _meta, ...r }) => r as Resource),
    status: 'active',
    purpose: ['benefits'],
    patient: { reference: '#patient' },
    created: new Date().toISOString().slice(0, 10),
    // No servicedDate: the service prices a session today by its own clock. Add one (YYYY-MM-DD)
    // to price an appointment ahead, within the window docs/estimates.md states.
    insurer: payer ? { reference: '#payer' } : { display: 'The Coverage payor' },
    ...(npi ? { provider: { reference: '#practitioner' } } : {}),
    insurance: [{ focal: true, coverage: { reference: '#coverage' } }],
    ...(price ? { item: [{ unitPrice: { value: Number(price), currency: 'USD' as const } }] } : {}),
  };
}

export async function handler(medplum: MedplumLike, event: BotEventLike): Promise<CoverageEligibilityResponse | OperationOutcome> {
  const coverage = event.input;
  const url = secret(event, 'COVERAGE_URL');
  const key = secret(event, 'COVERAGE_API_KEY');
  if (!url || !key) throw new Error('Set the bot secrets COVERAGE_URL and COVERAGE_API_KEY');
  const patient = await medplum.readReference<Patient>(coverage.beneficiary);
  const payorRef = coverage.payor[0];
  const payer = payorRef?.reference?.startsWith('Organization/') ? await medplum.readReference<Organization>(payorRef as Reference<Organization>) : null;

  const res = await fetch(`${url}/fhir/r4/CoverageEligibilityRequest/$submit`, {
    method: 'POST',
    headers: { apikey: key, 'content-type': 'application/fhir+json', accept: 'application/fhir+json' },
    body: JSON.stringify(eligibilityRequest(coverage, patient, payer, secret(event, 'PROVIDER_NPI'), secret(event, 'SESSION_PRICE'))),
  });
  const answer = (await res.json()) as CoverageEligibilityResponse | OperationOutcome;
  if (answer.resourceType === 'OperationOutcome') return answer;

  // Stored against the chart's own resources: the answer's #patient and #coverage were the copies sent.
  const { contained: _contained, ...rest } = answer;
  return medplum.createResource<CoverageEligibilityResponse>({
    ...rest,
    patient: { reference: `Patient/${patient.id}` },
    request: { display: 'Sent by the coverage-service bot' },
    insurance: (answer.insurance ?? []).map((i) => ({ ...i, coverage: { reference: `Coverage/${coverage.id}` } })),
  });
}

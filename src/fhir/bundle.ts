/** A submitted body: one CoverageEligibilityRequest, or a Bundle of them with the resources they reference. */
import type { Bundle, BundleEntry, CoverageEligibilityRequest, OperationOutcome, Reference, Resource } from '@medplum/fhirtypes';
import type { FieldError } from '../domain/errors.ts';
import { resolverFor, type Resolver } from './references.ts';

/** Requests one Bundle may carry: each is a check, counted and run as one. */
export const MAX_BUNDLE_REQUESTS = 20;

export interface Submitted {
  request: CoverageEligibilityRequest;
  resolver: Resolver;
  /** How the answer names this request. */
  ref: Reference<CoverageEligibilityRequest>;
}

export type Submission = { ok: true; bundle: boolean; requests: Submitted[] } | { ok: false; errors: FieldError[] };

const refOf = (request: CoverageEligibilityRequest, fullUrl?: string): Reference<CoverageEligibilityRequest> =>
  request.id
    ? { reference: `CoverageEligibilityRequest/${request.id}` }
    : fullUrl
      ? { reference: fullUrl }
      : { display: 'The submitted CoverageEligibilityRequest' };

export function submission(body: Resource): Submission {
  if (body.resourceType === 'CoverageEligibilityRequest')
    return { ok: true, bundle: false, requests: [{ request: body, resolver: resolverFor(body), ref: refOf(body) }] };
  if (body.resourceType !== 'Bundle') return { ok: false, errors: [{ field: 'resourceType', message: 'must be CoverageEligibilityRequest or Bundle' }] };
  const entries = Array.isArray(body.entry) ? body.entry : [];
  const requests = entries.filter((e): e is BundleEntry<CoverageEligibilityRequest> => e?.resource?.resourceType === 'CoverageEligibilityRequest');
  if (requests.length === 0) return { ok: false, errors: [{ field: 'Bundle.entry', message: 'must hold at least one CoverageEligibilityRequest' }] };
  if (requests.length > MAX_BUNDLE_REQUESTS)
    return { ok: false, errors: [{ field: 'Bundle.entry', message: `may hold at most ${MAX_BUNDLE_REQUESTS} CoverageEligibilityRequests` }] };
  return {
    ok: true,
    bundle: true,
    requests: requests.map((e) => ({ request: e.resource!, resolver: resolverFor(e.resource!, body), ref: refOf(e.resource!, e.fullUrl) })),
  };
}

export type EntryAnswer = { status: number; resource: Resource } | { status: number; outcome: OperationOutcome };

/** The batch-response Bundle: one entry per request, in order, each with its HTTP status. */
export function responseBundle(answers: EntryAnswer[]): Bundle {
  return {
    resourceType: 'Bundle',
    type: 'batch-response',
    entry: answers.map((a) =>
      'resource' in a ? { resource: a.resource, response: { status: String(a.status) } } : { response: { status: String(a.status), outcome: a.outcome } },
    ),
  };
}

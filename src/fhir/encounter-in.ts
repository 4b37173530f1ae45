/**
 * The encounter of a CoverageEligibilityRequest in the names the estimate request gives it
 * (`date_of_service`, `procedure_code`, `place_of_service`, docs/estimates.md): `servicedDate`, the
 * item's CPT `productOrService`, and the CMS place of service of the item's (or the request's)
 * facility Location. They go into the estimate request as they are, so /v1's checks (the date
 * window, the code shapes) apply; this is the one place that reads them from FHIR.
 */
import type { CodeableConcept, CoverageEligibilityRequest } from '@medplum/fhirtypes';
import type { FieldError } from '../domain/errors.ts';
import type { Resolver } from './references.ts';
import { CS } from './systems.ts';

export interface EncounterFields {
  date_of_service?: string;
  procedure_code?: string;
  place_of_service?: string;
}

const CPT = /^[0-9]{4}[0-9A-Z]$/;
const POS = /^[0-9]{2}$/;

const codeIn = (concept: CodeableConcept | undefined, system: string) => concept?.coding?.find((c) => c.system === system && c.code)?.code;

export function encounterFields(request: CoverageEligibilityRequest, resolver: Resolver, errors: FieldError[]): EncounterFields {
  const out: EncounterFields = {};
  if (request.servicedDate !== undefined) {
    if (/^\d{4}-\d{2}-\d{2}$/.test(request.servicedDate)) out.date_of_service = request.servicedDate;
    else errors.push({ field: 'CoverageEligibilityRequest.servicedDate', message: 'must be a full date, YYYY-MM-DD' });
  }
  if (request.servicedPeriod !== undefined)
    errors.push({ field: 'CoverageEligibilityRequest.servicedPeriod', message: 'send servicedDate: one session is priced' });
  const item = request.item?.[0];
  const product = item?.productOrService;
  if (product?.coding?.length) {
    const cpt = codeIn(product, CS.cpt);
    if (cpt && CPT.test(cpt)) out.procedure_code = cpt;
    else errors.push({ field: 'CoverageEligibilityRequest.item[0].productOrService', message: `must carry a CPT or HCPCS code in ${CS.cpt}` });
  }
  const facility = resolver.resolve(item?.facility ?? request.facility, ['Location']);
  const pos = facility?.type?.map((t) => codeIn(t, CS.placeOfService)).find((c) => c !== undefined);
  if (pos !== undefined) {
    if (POS.test(pos)) out.place_of_service = pos;
    else errors.push({ field: 'Location.type', message: 'must be a two-digit CMS place-of-service code' });
  }
  return out;
}

/**
 * Availity Coverages 1.0.0 as its published Swagger 2.0 document defines it: the schemas are data,
 * our JSON copy of its facts (availity-coverages.json says which document, and where it is
 * mirrored), built into TypeBox by schemasOf (json-schema.ts). Objects are closed: a field the
 * document does not define fails, so our simulator and writer cannot drift into names of our own.
 * Tests check our simulator's answers and our requests against it (test/connections/availity.test.ts)
 * and read fixtures of it (availity-reader.test.ts).
 */
import AVAILITY from './availity-coverages.json' with { type: 'json' };
import { schemasOf } from './json-schema.ts';

const SCHEMAS = schemasOf(AVAILITY);

/** GET /v1/coverages/{id}: the whole coverage. */
export const AvailityCoverage = SCHEMAS.Coverage;
/** POST /v1/coverages answers (200 or 202): a summary without benefits; the whole coverage is read by id. */
export const AvailityCoverageSummary = SCHEMAS.CoverageSummary;
/** POST /v1/coverages form fields (application/x-www-form-urlencoded); all strings, dates in the Date form. */
export const AvailityCoverageForm = SCHEMAS.CoverageForm;
/** Every 4xx/5xx answer. */
export const AvailityErrorResponse = SCHEMAS.ErrorResponse;

type NetworkName = keyof typeof AVAILITY.schemas.BenefitDetail.properties;
type AmountName = keyof typeof AVAILITY.schemas.Amounts.properties;
/** The networks a benefit's figures are given for (BenefitDetail's lists). */
export const AVAILITY_NETWORKS = Object.keys(AVAILITY.schemas.BenefitDetail.properties) as readonly NetworkName[];
/** The cost-share kinds of a benefit's `amounts`. */
export const AVAILITY_AMOUNTS = Object.keys(AVAILITY.schemas.Amounts.properties) as readonly AmountName[];

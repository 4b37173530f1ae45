/**
 * The OpenAPI document's words for the Good Faith Estimate (docs/good-faith-estimate.md), kept beside
 * the others (openapi-remittances.ts); its example calls are openapi-gfe-examples.json.
 */
import type { ErrorCode } from '../../domain/errors.ts';
import { BilledCheckAnswer, GoodFaithEstimate, GoodFaithEstimateList, GoodFaithEstimateRequest } from '../../domain/schemas/good-faith-estimates.ts';

export const GFE_OPERATIONS = [
  'createGoodFaithEstimate',
  'listGoodFaithEstimates',
  'getGoodFaithEstimate',
  'reviseGoodFaithEstimate',
  'giveGoodFaithEstimate',
  'checkGoodFaithEstimateBills',
] as const;

/** Components of the document (openapi-document.ts SHARED_SCHEMAS). */
export const GFE_SCHEMAS = [GoodFaithEstimateRequest, GoodFaithEstimate, GoodFaithEstimateList, BilledCheckAnswer];

export const GFE_CODE_MEANINGS: Partial<Record<ErrorCode, string>> = {
  INVALID_REQUEST:
    'the estimate lacks an element 45 CFR 149.610(c) requires (the message names each, `errors` ' +
    'the fields), a field is invalid, or, for a billed check, no version was given yet',
  NOT_FOUND: 'no Good Faith Estimate with this id (or version) belongs to this key',
};

export const GFE_TAG = {
  name: 'good faith estimates',
  description:
    'Good Faith Estimates for uninsured and self-pay clients (No Surprises Act, 45 CFR 149.610): every required element ' +
    'checked, due dates in business days, versions, and the $400 check of billed charges (docs/good-faith-estimate.md).',
};

export const isGfePath = (path: string) => path.startsWith('/v1/good-faith-estimates');

/** The package's public API: the typed client and the types of every request and answer. */
export { CoverageClient, type CoverageClientOptions } from './client/coverage-client.ts';
export { CoverageApiError, type ApiErrorCode, type FieldError } from './client/errors.ts';
export type { ErrorCode } from './domain/errors.ts';
export type { DiscoverRequest, EstimateRequest, MedicaidRequest, ScanRequest, OperationName } from './domain/schemas/requests.ts';
export type {
  Alert,
  BenefitStructure,
  DiscoverResponse,
  ErrorResponse,
  EstimateResponse,
  MedicaidResponse,
  PlanStatus,
  ResetBenefits,
  ResetStatus,
  ScanResponse,
} from './domain/schemas/responses.ts';
export type { PayerListing, PayersResponse } from './domain/schemas/payers.ts';
export type { SandboxMember, SandboxMembersResponse } from './domain/schemas/sandbox.ts';

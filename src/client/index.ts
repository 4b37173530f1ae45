/**
 * `coverage-service/client`: the typed client and the types of every request and answer. Its import
 * graph reaches no dependency (types come from the TypeBox schemas as `import type` only), so an app
 * that only calls the API loads no server code.
 */
export { CoverageClient, type CoverageClientOptions } from './coverage-client.ts';
export { CoverageApiError, type ApiErrorCode, type FieldError } from './errors.ts';
export type { ErrorCode } from '../domain/errors.ts';
export type { DiscoverRequest, EstimateRequest, MedicaidRequest, ScanRequest, OperationName } from '../domain/schemas/requests.ts';
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
} from '../domain/schemas/responses.ts';
export type { PayerListing, PayersResponse } from '../domain/schemas/payers.ts';
export type {
  DeliveryAnswer,
  DeliveryList,
  Monitor,
  MonitorCheckResult,
  MonitorCreated,
  MonitorCreateRequest,
  MonitorList,
  MonitorsCreated,
  MonitorsCreateRequest,
  Webhook,
  WebhookCreated,
  WebhookCreateRequest,
  WebhookList,
} from '../domain/schemas/monitors.ts';
export type { SandboxMember, SandboxMembersResponse } from '../domain/schemas/sandbox.ts';

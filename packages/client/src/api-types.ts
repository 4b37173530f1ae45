/**
 * The types of every request and answer, taken from the server's TypeBox schemas (src/domain/schemas),
 * which stay the one place each shape is written. The only file of the client that reaches outside
 * packages/client/: the build (scripts/build.mjs) replaces its declarations with the types expanded,
 * so the published package is self-contained.
 */
export type { ErrorCode } from '../../../src/domain/errors.ts';
export type { DiscoverRequest, EstimateRequest, MedicaidRequest, ScanRequest, OperationName } from '../../../src/domain/schemas/requests.ts';
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
} from '../../../src/domain/schemas/responses.ts';
export type { PayerListing, PayersResponse } from '../../../src/domain/schemas/payers.ts';
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
} from '../../../src/domain/schemas/monitors.ts';
export type { SandboxMember, SandboxMembersResponse } from '../../../src/domain/schemas/sandbox.ts';

/**
 * The shape of the sandbox scenario catalog. Entries describe members and their plans, never
 * final JSON: responses are computed from them by the same X12 and estimate code production uses.
 * Dates may be tokens relative to the clock ("@today+20", "@year_start", "@year_end",
 * "@next_year_start", "@today-30") so scenarios keep their meaning on any day.
 */
import type { Address, AdditionalPolicy, Coverage, Gender, Relationship } from '../domain/coverage.ts';
import type { ErrorCode } from '../domain/errors.ts';
import type { OperationName } from '../domain/schemas/requests.ts';

export interface SandboxPayer {
  payer_id: string;
  name: string;
  /** Answers name + DOB searches (discover, scan). */
  supports_search: boolean;
  /** The state whose Medicaid program this payer is. */
  medicaid_state: string | null;
}

/** Plan fields as the catalog writes them: a Coverage without the member, subscriber and payer. */
export type CatalogPlan = Omit<Coverage, 'payer_id' | 'payer_name' | 'member' | 'subscriber' | 'relationship_to_subscriber' | 'additional_policies'> & {
  additional_policies: AdditionalPolicy[];
};

type DeepPartial<T> = T extends (infer U)[] ? U[] : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> | null } : T;
export type PlanOverrides = DeepPartial<CatalogPlan>;

export interface CatalogPerson {
  first_name: string;
  last_name: string;
  dob: string;
  gender: Gender;
}

/** How the payer answers instead of returning coverage. */
export type ScenarioAnswer =
  | { kind: 'coverage' }
  | { kind: 'reject'; level: 'payer' | 'provider' | 'subscriber'; reason_code: string; followup: 'C' | 'N' | 'R' | 'W' | 'X' | 'Y' }
  /** The payer's endpoint itself fails or throttles: no 271 comes back. */
  | { kind: 'fault'; fault: 'payer_failure' | 'throttled' };

export interface Expectation {
  status: number;
  error_code: ErrorCode | null;
}

export interface CatalogMember {
  member_id: string;
  person: CatalogPerson;
  /** The payer's own record when it differs from what a caller is expected to send (demographic mismatch). */
  payer_record?: Partial<CatalogPerson>;
  /** Present for dependents: the subscriber who holds the policy. */
  subscriber?: CatalogPerson & { member_id: string };
  relationship: Relationship;
  payer_id: string;
  address: Address | null;
  /** Medicaid members: the state whose program covers them. */
  patient_state?: string;
  scenario: string;
  description: string;
  plan: string;
  overrides?: PlanOverrides;
  answer?: ScenarioAnswer;
  /** Expected status and error code per endpoint the member serves; tests assert these over HTTP. */
  expect: Partial<Record<OperationName, Expectation>>;
}

/** A scenario selected by the member ID suffix of spec 10.4: `<digits>MH<suffix>`. */
export interface SuffixScenario {
  suffix: string;
  scenario: string;
  description: string;
  plan: string;
  overrides?: PlanOverrides;
  /** Answer chosen by the first digit of the numeric prefix (RR: 1 payer failure, 2 not supported). */
  answer?: ScenarioAnswer | { byPrefix: Record<string, ScenarioAnswer> };
  expect: Expectation | { byPrefix: Record<string, Expectation> };
}

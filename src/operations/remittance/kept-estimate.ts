/**
 * What an answered estimate keeps so a remittance can be compared with it later (docs/remittances.md
 * 'Estimates kept'): who (keyed hashes, never the member's data), which payer, plan and encounter, the
 * figures answered, and the rule that made them (the plan facts the engine priced with), so the same
 * rule can be applied again at the amount the payer allowed. Sealed at rest (store/estimate-records.ts).
 */
import type { Coverage } from '../../domain/coverage.ts';
import { benefitsFor, gateOf, isQmb, planFacts, type PlanFacts } from '../../domain/estimate/index.ts';
import type { EstimateResponse } from '../../domain/schemas/responses.ts';

/** PlanFacts as JSON keeps them: the coinsurance rate (a bigint of millionths) as a number. */
export type KeptFacts = Omit<PlanFacts, 'rule'> & { rule: { copay: number; rate_millionths: number } | null };

/** How the estimate priced the session: by the plan's cost share, the whole session (a gate: inactive, not covered, visits used up), or nothing (QMB). */
export type PricingRule = { kind: 'share'; facts: KeptFacts } | { kind: 'whole_session' } | { kind: 'nothing' };

export function keptFacts(f: PlanFacts): KeptFacts {
  return { ...f, rule: f.rule === null ? null : { copay: f.rule.copay, rate_millionths: Number(f.rule.rate) } };
}

export function planFactsOf(k: KeptFacts): PlanFacts {
  return { ...k, rule: k.rule === null ? null : { copay: k.rule.copay, rate: BigInt(k.rule.rate_millionths) } };
}

export interface KeptEstimate {
  id: string;
  /** ISO instant the estimate was answered. */
  at: string;
  key_id: string;
  /** Keyed hash of the member ID alone: what an 835's NM1 IL/QC gives. */
  member_id_hash: string;
  /** Keyed hash of the member's first and last name, compared where the 835 names the patient. */
  name_hash: string;
  payer_id: string;
  group_id: string | null;
  plan_name: string | null;
  date_of_service: string;
  /** null: the default encounter (an office psychotherapy visit, no code sent). */
  procedure_code: string | null;
  place_of_service: string;
  in_network: boolean;
  session_cost: number | null;
  member_obligation: number | null;
  payer_obligation: number | null;
  benefit_structure: string | null;
  copayment: number | null;
  coinsurance: number | null;
  rule: PricingRule;
  /** Where the estimate came from: api, batch, monitor, fhir. */
  surface: string;
}

/** The rule behind an estimate body, from the coverage it was read from (the engine's own facts). */
export function pricingRuleOf(coverage: Coverage, inNetwork: boolean, dateOfService: string): PricingRule {
  const benefits = benefitsFor(coverage, inNetwork, dateOfService);
  if (gateOf(coverage, benefits, dateOfService) !== null) return { kind: 'whole_session' };
  if (isQmb(coverage)) return { kind: 'nothing' };
  return { kind: 'share', facts: keptFacts(planFacts(benefits, benefits)) };
}

/** The store's keyed member hash (store/member-hash.ts), handed in: operations/ does not know the store. */
export type KeyedHash = (identity: { member_id?: string | null; first_name?: string | null; last_name?: string | null }) => string;

export interface KeptEstimateInput {
  id: string;
  at: string;
  key_id: string;
  surface: string;
  member: { member_id: string; first_name: string | null; last_name: string | null };
  in_network: boolean;
  body: EstimateResponse;
  coverage: Coverage;
}

export function keptEstimateOf(input: KeptEstimateInput, hash: KeyedHash): KeptEstimate {
  const { body } = input;
  return {
    id: input.id,
    at: input.at,
    key_id: input.key_id,
    member_id_hash: hash({ member_id: input.member.member_id }),
    name_hash: hash({ first_name: input.member.first_name, last_name: input.member.last_name }),
    payer_id: body.payer_id,
    group_id: body.group_id,
    plan_name: body.plan_name,
    date_of_service: body.encounter.date_of_service,
    procedure_code: body.encounter.procedure_code,
    place_of_service: body.encounter.place_of_service,
    in_network: input.in_network,
    session_cost: body.provider_session_cost,
    member_obligation: body.member_obligation,
    payer_obligation: body.payer_obligation,
    benefit_structure: body.benefit_structure,
    copayment: body.copayment,
    coinsurance: body.coinsurance,
    rule: pricingRuleOf(input.coverage, input.in_network, body.encounter.date_of_service),
    surface: input.surface,
  };
}

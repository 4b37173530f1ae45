/**
 * The figures of each network for the encounter (docs/estimates.md section 1.1): the rows that price
 * it, Medicare's Part A/Part B rule, a Medicare Advantage enrollment HETS reports; the gates read from
 * the 271 that leave the member the whole session are benefits/gates.ts.
 */
import type { InsuranceType, IsoDate, NetworkBenefits, CostShare } from '../../domain/coverage.ts';
import { networkBenefits, type PlanFacts } from '../benefit-selection.ts';
import { telehealthShare } from '../telehealth-share.ts';
import { insuranceCode, isShareInfo, type Benefit } from '../eb-benefit.ts';
import { STRONG_BH_TIER } from '../codes.ts';
import { medicareParts } from '../medicare.ts';
import { unknownWords, type UnknownValue } from './closed-world.ts';
import { closeGates, ownServiceGate } from './gates.ts';
import { medicarePartOf } from '../code-tables/attributes.ts';
import type { SessionStatus } from '../plan-rows.ts';
import type { PricingRows } from './pricing-rows.ts';
import { traced, type TraceEntry } from './trace.ts';

/** A row for Medicare Part A (EB04 MA: eb04.json `medicarePart`). */
const isPartA = (b: Benefit) => medicarePartOf(insuranceCode(b)) === 'part_a';

export interface PricingInput {
  insurance_type: InsuranceType;
  /** The rows that apply to the encounter. */
  current: readonly Benefit[];
  /** Behavioral-health rows for the encounter's place, and those for telehealth. */
  bh: readonly Benefit[];
  teleList: readonly Benefit[];
  /** Rows with values no rule reads (closed-world.ts): they price nothing, and a figure they compete for is unknown. */
  unknown: readonly Benefit[];
  /** 2100C/D dates bounding the coverage that the plan gate does not read, outside the date of service (closed-world.ts): no figure prices. */
  memberDates: readonly UnknownValue[];
  dateOfService: IsoDate | null;
  /** The plan is inactive: no gate is read (the estimate's own gate closes). */
  inactive: boolean;
  plan: PlanFacts;
  /** HETS reports a Medicare Advantage enrollment: Original Medicare's figures never price the session. */
  advantageElsewhere: boolean;
  /** Mental health's status rows say inactive for this network only (EB12 Y or N): its session is not covered. */
  mhInactive: { in: boolean; out: boolean };
  /** What the status rows say of each network (plan-rows.ts sessionStatus): inactive for one only closes it; none for one leaves it unknown. */
  session: Pick<SessionStatus, 'closed' | 'unstated' | 'limited'>;
  warnings: string[];
  trace?: TraceEntry[];
}

export interface Priced {
  in_network: NetworkBenefits | null;
  out_of_network: NetworkBenefits | null;
  teleIn: CostShare | null;
  teleOut: CostShare | null;
  /** Part A rows left out of the price (named in the explanation). */
  partAFiltered: Benefit[];
}

function withoutCostShare(b: NetworkBenefits | null): NetworkBenefits | null {
  if (b === null) return null;
  const { not_covered: _, prior_authorization_required: __, prior_authorization_number: ___, ...rest } = b;
  return { ...rest, copayment: null, coinsurance: null };
}

export function priceNetworks(input: PricingInput): Priced {
  const { insurance_type, current, bh, teleList, warnings, trace } = input;
  // Traditional Medicare: the session is a Part B service; Part A benefits (its inpatient deductible) never price it.
  const parts = insurance_type === 'medicare' || insurance_type === 'qmb' ? medicareParts(current, input.dateOfService) : null;
  const partAFiltered = parts && parts.a !== 'absent' ? bh.filter(isPartA) : [];
  const priced = partAFiltered.length > 0 ? bh.filter((b) => !isPartA(b)) : bh;
  const unknown = partAFiltered.length > 0 ? input.unknown.filter((b) => !isPartA(b)) : input.unknown;
  // Behavioral-health cost shares stated for the other way of seeing the member only (the office for a telehealth visit, or
  // telehealth for one in person): the fallback order never prices what they leave unstated (docs/estimates.md 1.1, "Fallback order").
  const otherPlace = current.filter(
    (b) => b.tier >= 0 && b.tier <= STRONG_BH_TIER && isShareInfo(b.info) && b.unknown.length === 0 && !input.plan.fits(b.place),
  );
  let in_network = networkBenefits(priced, 'in', warnings, trace, input.plan, unknown, otherPlace);
  let out_of_network = networkBenefits(priced, 'out', warnings, trace, input.plan, unknown, otherPlace);
  if (input.memberDates.length > 0) {
    // The coverage on the date of service cannot be told (docs/estimates.md 1.1, "Closed world"): no cost share prices it.
    in_network = withoutCostShare(in_network);
    out_of_network = withoutCostShare(out_of_network);
    trace?.push(
      traced('cost share', null, null, `unknown: the member's dates say the coverage may not be in force (2100C/D ${unknownWords(input.memberDates)})`),
    );
  }
  if (input.advantageElsewhere) {
    // HETS answers for a Medicare Advantage member: the MA plan pays, and its cost share is not in this 271.
    in_network = null;
    out_of_network = null;
    trace?.push(
      traced(
        'Medicare Advantage',
        null,
        null,
        'an EB*R row names a Medicare Advantage plan (REF*18 an MA contract with its 2120C): Part B figures never price the session',
      ),
    );
  }
  // Gates read from the 271 (docs/estimates.md section 1.1): the member owes the whole session, whatever the cost-share rows say.
  ({ in_network, out_of_network } = closeGates({ in_network, out_of_network }, { ...input, parts }));
  if (trace && parts && parts.a !== 'absent') trace.push(traced('Part A benefits', null, null, 'Part A (EB04 MA) benefits never price an outpatient session'));
  // With the coverage itself unknown on the date of service, no telehealth cost share prices it either.
  const unknownCoverage = input.memberDates.length > 0;
  const { ageAdmitted, procedure = null } = input.plan;
  const teleIn = unknownCoverage ? null : telehealthShare(teleList, 'in', in_network, warnings, trace, unknown, ageAdmitted, procedure);
  const teleOut = unknownCoverage ? null : telehealthShare(teleList, 'out', out_of_network, warnings, trace, unknown, ageAdmitted, procedure);
  return { in_network, out_of_network, teleIn, teleOut, partAFiltered };
}

/** What pricing a network reads beside its rows. */
export type PricingFacts = Pick<
  PricingInput,
  'insurance_type' | 'dateOfService' | 'inactive' | 'plan' | 'advantageElsewhere' | 'mhInactive' | 'memberDates' | 'session'
> & {
  /** The encounter's own service types when their status rows gate the session (gates.ts ownServiceGate), else null. */
  ownService?: readonly string[] | null;
};

/** priceNetworks over one year's rows (one object shape for every call). */
export function priceRows(rows: PricingRows, f: PricingFacts, warnings: string[], trace: TraceEntry[] | undefined) {
  const priced = priceNetworks({
    insurance_type: f.insurance_type,
    current: rows.current,
    bh: rows.bh,
    teleList: rows.teleList,
    unknown: rows.unknown,
    memberDates: f.memberDates,
    dateOfService: f.dateOfService,
    inactive: f.inactive,
    plan: f.plan,
    advantageElsewhere: f.advantageElsewhere,
    mhInactive: f.mhInactive,
    session: f.session,
    warnings,
    trace,
  });
  return f.ownService ? { ...priced, ...ownServiceGate(priced, rows.current, f.ownService, trace) } : priced;
}

/**
 * Each service line of a remittance matched to the latest estimate kept for the same member (keyed
 * hash of the member ID the 835 gives), payer, date of service and procedure; the patient's name,
 * where the 835 gives it, must agree. A line nothing matches is listed with the reason, never guessed
 * (docs/remittances.md 'Matching').
 */
import { carriesMemberId } from '../../x12/remittance/codes.ts';
import { lineDate } from '../../x12/remittance/shares.ts';
import type { Claim, Person, Remittance, ServiceLine } from '../../x12/remittance/types.ts';
import { observedOf, type Observed } from './advisory.ts';
import { compareLine, type LineComparison } from './compare.ts';
import type { KeptEstimate, KeyedHash } from './kept-estimate.ts';

export interface LineMatch {
  claim: number;
  line: number;
  claim_status: string;
  procedure: string;
  modifiers: string[];
  date_of_service: string | null;
  estimate_id: string | null;
  /** procedure: the estimate named the line's procedure; default_encounter: it priced the default visit (no code) and is the only one that day. */
  matched_by: 'procedure' | 'default_encounter' | null;
  unmatched_reason: string | null;
  comparison: LineComparison | null;
  /** Where the estimate was made (api, batch, monitor, fhir), its payer and plan: the accuracy report's groups. */
  payer_id: string | null;
  group_id: string | null;
  benefit_structure: string | null;
  /** What the line says of each benefit against the eligibility answer (the advisory's, kept in the store, not answered). */
  observed: Observed | null;
}

export interface MatchOptions {
  /** The directory payer IDs the remittance is from (its N1 PR / REF 2U resolved, or the caller's payer_id); empty: not identified. */
  payerIds: readonly string[];
  /** The estimates kept for a member ID hash, payer and date of service, any order. */
  candidates: (memberIdHash: string, payerId: string, dateOfService: string) => KeptEstimate[];
  hash: KeyedHash;
}

/** The payer's member ID the claim names: the corrected insured's, the insured's, else the patient's (codes/member-ids.json). */
export function memberIdOf(claim: Claim): string | null {
  for (const p of [claim.corrected_insured, claim.subscriber, claim.patient] as (Person | null)[]) {
    if (p?.id && carriesMemberId(p.id_qualifier)) return p.id;
  }
  return null;
}

function unmatched(base: Omit<LineMatch, 'unmatched_reason'>, reason: string): LineMatch {
  return { ...base, unmatched_reason: reason };
}

export function matchLine(claim: Claim, ci: number, line: ServiceLine, li: number, options: MatchOptions): LineMatch {
  const date = lineDate(claim, line);
  const base: Omit<LineMatch, 'unmatched_reason'> = {
    claim: ci + 1,
    line: li + 1,
    claim_status: claim.status,
    procedure: line.procedure.code,
    modifiers: line.procedure.modifiers,
    date_of_service: date,
    estimate_id: null,
    matched_by: null,
    comparison: null,
    payer_id: null,
    group_id: null,
    benefit_structure: null,
    observed: null,
  };
  if (options.payerIds.length === 0)
    return unmatched(base, 'the payer of the remittance is not one the directory knows (N1 PR, REF 2U): name it with payer_id');
  const memberId = memberIdOf(claim);
  if (memberId === null) return unmatched(base, 'the claim names no member ID (NM1 IL or QC with MI, II, HN or MR)');
  if (date === null) return unmatched(base, 'the line has no date of service (DTM 472, 150, or the claim statement period)');
  const idHash = options.hash({ member_id: memberId });
  let found = options.payerIds.flatMap((p) => options.candidates(idHash, p, date));
  if (found.length === 0) return unmatched(base, 'no estimate was kept for this member, payer and date of service');
  const patient = claim.patient;
  if (patient?.first_name && patient.last_name) {
    const nameHash = options.hash({ first_name: patient.first_name, last_name: patient.last_name });
    found = found.filter((k) => k.name_hash === nameHash);
    if (found.length === 0) return unmatched(base, "the patient's name on the claim is not the name of any estimate for this member ID and date");
  }
  const latest = (ks: KeptEstimate[]) => ks.reduce((a, b) => (b.at > a.at ? b : a));
  const byProcedure = found.filter((k) => k.procedure_code !== null && k.procedure_code.toUpperCase() === line.procedure.code.toUpperCase());
  let kept: KeptEstimate;
  let by: LineMatch['matched_by'];
  if (byProcedure.length > 0) {
    kept = latest(byProcedure);
    by = 'procedure';
  } else {
    // An estimate of the default encounter (no code sent) priced "an office psychotherapy visit": it answers for the day's one billed line only.
    const defaults = found.filter((k) => k.procedure_code === null);
    const sameDay = claim.lines.filter((l) => lineDate(claim, l) === date);
    if (defaults.length === 0)
      return unmatched(base, `the estimates for this member and date priced other procedures (${[...new Set(found.map((k) => k.procedure_code))].join(', ')})`);
    if (sameDay.length > 1) return unmatched(base, 'the estimate named no procedure and the claim bills several lines that day');
    kept = latest(defaults);
    by = 'default_encounter';
  }
  const comparison = compareLine(kept, claim, line);
  return {
    ...base,
    estimate_id: kept.id,
    matched_by: by,
    unmatched_reason: null,
    comparison,
    payer_id: kept.payer_id,
    group_id: kept.group_id,
    benefit_structure: kept.benefit_structure,
    observed: observedOf(kept, claim.status, comparison),
  };
}

export function matchRemittance(rem: Remittance, options: MatchOptions): LineMatch[] {
  const out: LineMatch[] = [];
  rem.claims.forEach((claim, ci) => claim.lines.forEach((line, li) => out.push(matchLine(claim, ci, line, li, options))));
  return out;
}

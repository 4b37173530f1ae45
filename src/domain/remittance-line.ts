/**
 * What a compared remittance line keeps (docs/remittances.md): the accuracy report reads its verdict,
 * the desk's advisory what it observed of each benefit. No member data: amounts, codes and the day.
 */

/** What the accuracy report counts of a line (operations/remittance/accuracy.ts). */
export interface ComparedLine {
  payer_id: string;
  group_id: string | null;
  benefit_structure: string | null;
  verdict: string;
  difference: number | null;
  cause: string | null;
  created_at: string;
}

/** What a compared line says of each benefit: the 271's figure, the estimate's part, the payer's (cents; coinsurance rate in millionths). */
export interface Observed {
  /** The 271's per-session copay the estimate read, the copay part it estimated, and the PR 3 the payer took (cents). */
  copay_said: number | null;
  copay_estimated: number | null;
  copay_paid: number | null;
  /** The 271's coinsurance (millionths), the coinsurance part estimated, and the PR 2 the payer took (cents). */
  coinsurance_said: number | null;
  coinsurance_estimated: number | null;
  coinsurance_paid: number | null;
  /** The deductible part estimated and the PR 1 the payer took (cents). */
  deductible_estimated: number | null;
  deductible_paid: number | null;
}

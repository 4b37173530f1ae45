/** The explanation's lines for a cost-share group (share-group.ts): where its figures come from, and its conflicts. */
import { benefitRole } from '../code-tables/attributes.ts';
import type { CostShareFallback, Net } from './rows.ts';
import type { ShareGroup } from './share-group-shape.ts';
import { TIER_NAME, traced, type TraceEntry } from './trace.ts';

/** The fallback order of a psychotherapy session's cost share, in words (docs/estimates.md 1.1, "Fallback order"). */
const FALLBACK_ORDER: Readonly<Record<CostShareFallback, string>> = {
  '98-then-30': 'MH, then CF/A4/A6/A8/AI, then the office visit 98, then the plan 30',
  '30-then-98': "MH, then CF/A4/A6/A8/AI, then the plan 30, then the office visit 98 (the payer directory's order)",
};

export function traceGroup(group: ShareGroup, n: Net, prefix: string, out: TraceEntry[]): void {
  // No behavioral-health type states a cost share: the fallback order prices it, and the explanation says so (docs/estimates.md 1.1).
  const fallback = group.tier >= 2 ? ` (fallback: no behavioral-health cost share; order ${FALLBACK_ORDER[group.fallback]})` : '';
  const where = `most specific service type with a cost share: ${TIER_NAME[group.tier] ?? group.tier}${group.sources.explicit ? ', place of service named' : ''}${fallback}`;
  if (group.notCovered) out.push(traced(`${prefix}not covered`, n, group.sources.notCovered, `EB01 I (${where}): the member pays the whole session`));
  const split = group.visitSplit;
  const byVisit = split
    ? `; the payer's MSG splits the year's visits after visit ${split.split}, and this is visit ${split.visit} (the visit limit's used count)`
    : '';
  const words = group.combine
    ? `; the payer's MSG says whichever is ${group.combine}: the member pays the ${group.combine} of the two, never both`
    : group.sameAs
      ? `; the row's MSG says the same as the ${group.sameAs === 'primary_care' ? 'primary care' : 'specialist'} office visit, whose copay and coinsurance these are`
      : group.insteadOf
        ? `; the payer's MSG says the ${group.insteadOf} applies instead of the ${group.insteadOf === 'copay' ? 'coinsurance' : 'copay'}: that one alone`
        : '';
  const qualified = group.qualified.length > 0 ? `; the payer's MSG says for this visit: "${group.qualified.join('"; "')}"` : '';
  if (group.copayment !== null) out.push(traced(`${prefix}copayment`, n, group.sources.copay, where + byVisit + words + qualified));
  else if (group.coinsurance !== null) out.push(traced(`${prefix}copayment`, n, null, 'none in that benefit; a less specific copay is never added'));
  if (group.coinsurance !== null) out.push(traced(`${prefix}coinsurance`, n, group.sources.coinsurance, where + byVisit + words + qualified));
  else if (group.copayment !== null) out.push(traced(`${prefix}coinsurance`, n, null, 'none in that benefit; a less specific coinsurance is never added'));
  for (const b of group.conflicts) {
    out.push({
      ...traced(
        `${prefix}${benefitRole(b.info) === 'copayment' ? 'copayment' : 'coinsurance'}`,
        n,
        b,
        group.byVisits
          ? `a copay and a coinsurance (${where}) stated for different visits of the year (MSG): which this visit is, the 271 does not say: unknown, never both`
          : group.byWords
            ? `a copay or coinsurance (${where}) related or qualified in words no rule reads (MSG${group.unread ? `: ${group.unread.join(' ')}` : ''}): unknown, never charged as if the words were absent`
            : `rows of the same rank (${where}) state different amounts: unknown, never the first`,
      ),
      status: 'conflict',
    });
  }
}

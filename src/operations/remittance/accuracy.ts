/**
 * The accuracy report (GET /v1/accuracy, docs/remittances.md 'Report'): compared lines counted per
 * payer, and per plan group and benefit structure within it, with the totals collected too little or
 * too much and the most frequent causes, and a weekly trend.
 */
import type { ComparedLine } from '../../domain/remittance-line.ts';

export type { ComparedLine };

export interface Tally {
  lines: number;
  compared: number;
  exact: number;
  within_1: number;
  off: number;
  not_comparable: number;
  under_collected_cents: number;
  over_collected_cents: number;
  causes: { cause: string; lines: number }[];
}

export interface AccuracyReport {
  payers: (Tally & {
    payer_id: string;
    plans: (Tally & { group_id: string | null; benefit_structure: string | null })[];
    weeks: (Tally & { week: string })[];
  })[];
}

/** Top causes listed in a tally. */
const TOP_CAUSES = 5;

function tally(lines: readonly ComparedLine[]): Tally {
  const t: Tally = {
    lines: lines.length,
    compared: 0,
    exact: 0,
    within_1: 0,
    off: 0,
    not_comparable: 0,
    under_collected_cents: 0,
    over_collected_cents: 0,
    causes: [],
  };
  const causes = new Map<string, number>();
  for (const l of lines) {
    if (l.verdict === 'not_comparable') {
      t.not_comparable++;
      continue;
    }
    t.compared++;
    if (l.verdict === 'exact') t.exact++;
    else if (l.verdict === 'within_1') t.within_1++;
    else t.off++;
    if (l.verdict === 'under_collected') t.under_collected_cents += l.difference ?? 0;
    if (l.verdict === 'over_collected') t.over_collected_cents += -(l.difference ?? 0);
    if (l.cause) causes.set(l.cause, (causes.get(l.cause) ?? 0) + 1);
  }
  t.causes = [...causes]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, TOP_CAUSES)
    .map(([cause, n]) => ({ cause, lines: n }));
  return t;
}

/** The Monday (UTC) of the week holding an ISO instant. */
export function weekOf(iso: string): string {
  const d = new Date(`${iso.slice(0, 10)}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

function groupBy<T>(xs: readonly T[], key: (x: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) {
    const k = key(x);
    const list = m.get(k);
    if (list) list.push(x);
    else m.set(k, [x]);
  }
  return m;
}

export function accuracyReport(lines: readonly ComparedLine[]): AccuracyReport {
  const payers = [...groupBy(lines, (l) => l.payer_id)].sort(([a], [b]) => a.localeCompare(b));
  return {
    payers: payers.map(([payer_id, ls]) => ({
      payer_id,
      ...tally(ls),
      plans: [...groupBy(ls, (l) => JSON.stringify([l.group_id, l.benefit_structure]))].map(([, ps]) => ({
        group_id: ps[0]!.group_id,
        benefit_structure: ps[0]!.benefit_structure,
        ...tally(ps),
      })),
      weeks: [...groupBy(ls, (l) => weekOf(l.created_at))].sort(([a], [b]) => a.localeCompare(b)).map(([week, ws]) => ({ week, ...tally(ws) })),
    })),
  };
}

/**
 * The check of billed charges against a given Good Faith Estimate (45 CFR 149.620): a client may
 * dispute when any one provider bills $400 or more above that provider's expected charges. A provider
 * the estimate did not name had $0 expected. Bills naming one NPI twice are added up.
 */
export const DISPUTE_THRESHOLD_CENTS = 40_000;

export interface BilledLine {
  npi: string;
  name: string | null;
  estimated_cents: number;
  billed_cents: number | null;
  over_cents: number | null;
  disputable: boolean;
}

export function billedCheck(
  providers: readonly { npi: string; name: string; total_cents: number }[],
  bills: readonly { npi: string; billed_cents: number }[],
): { providers: BilledLine[]; any_disputable: boolean } {
  const billed = new Map<string, number>();
  for (const b of bills) billed.set(b.npi, (billed.get(b.npi) ?? 0) + b.billed_cents);
  const estimated = new Map<string, { name: string; total: number }>();
  for (const p of providers) {
    const e = estimated.get(p.npi);
    estimated.set(p.npi, { name: e?.name ?? p.name, total: (e?.total ?? 0) + p.total_cents });
  }
  const line = (npi: string, name: string | null, est: number): BilledLine => {
    const b = billed.get(npi) ?? null;
    const over = b === null ? null : b - est;
    return { npi, name, estimated_cents: est, billed_cents: b, over_cents: over, disputable: over !== null && over >= DISPUTE_THRESHOLD_CENTS };
  };
  const lines = [...estimated].map(([npi, e]) => line(npi, e.name, e.total));
  // Providers the estimate did not name follow, by NPI, whatever order the bills came in.
  for (const npi of [...billed.keys()].sort()) if (!estimated.has(npi)) lines.push(line(npi, null, 0));
  return { providers: lines, any_disputable: lines.some((l) => l.disputable) };
}

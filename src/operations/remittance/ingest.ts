/**
 * A remittance received: read (x12/remittance), its payer resolved through the directory, each line
 * matched to a kept estimate and compared (docs/remittances.md). The store is reached through the
 * functions handed in; nothing here knows HTTP.
 */
import type { PayerNetwork } from '../../payers/network.ts';
import { readRemittances } from '../../x12/remittance/read-835.ts';
import { lineDate } from '../../x12/remittance/shares.ts';
import type { Remittance } from '../../x12/remittance/types.ts';
import type { KeptEstimate, KeyedHash } from './kept-estimate.ts';
import { matchRemittance, memberIdOf, type LineMatch } from './match.ts';
import { OperationErrors } from '../errors.ts';

export interface RemittanceLine extends LineMatch {
  /** The 835 transaction set (1-based) when the file holds several. */
  transaction: number;
}

export interface IngestedRemittance {
  claims: number;
  service_lines: number;
  matched: number;
  unmatched: number;
  warnings: string[];
  lines: RemittanceLine[];
  /** For the audit: one entry per claim, the member it names by keyed hash and the payer resolved. */
  members: { member_hash: string | null; payer_id: string | null }[];
}

export interface IngestDeps {
  network: PayerNetwork;
  hash: KeyedHash;
  /** The kept estimates for a member ID hash, payer and date of service (this key's, unexpired). */
  estimatesFor: (memberIdHash: string, payerId: string, dateOfService: string) => Promise<KeptEstimate[]>;
}

/** The directory payer IDs a remittance names (REF 2U, N1 PR N104), or the one the caller named. */
export function payersOf(network: PayerNetwork, rem: Remittance, named: string | undefined): string[] {
  const known = (id: string | null) => {
    if (!id) return null;
    const canonical = network.canonicalId(id.trim()) ?? id.trim();
    return network.payer(canonical) ? canonical : null;
  };
  if (named !== undefined && named.trim() !== '') {
    const id = known(named);
    if (id === null) throw OperationErrors.unknownRemittancePayer(named.trim().slice(0, 80));
    return [id];
  }
  return [...new Set([known(rem.payer.additional_id), known(rem.payer.id)].filter((id): id is string => id !== null))];
}

export async function ingestRemittance(text: string, payerId: string | undefined, deps: IngestDeps): Promise<IngestedRemittance> {
  const read = readRemittances(text);
  if (!read.ok) throw OperationErrors.unreadable835(read.error.message);
  const lines: RemittanceLine[] = [];
  const members: IngestedRemittance['members'] = [];
  let claims = 0;
  for (const [t, rem] of read.value.entries()) {
    const payerIds = payersOf(deps.network, rem, payerId);
    // The store is asked once per member, payer and date the file names; matching itself is synchronous.
    const found = new Map<string, KeptEstimate[]>();
    for (const claim of rem.claims) {
      const memberId = memberIdOf(claim);
      const idHash = memberId === null ? null : deps.hash({ member_id: memberId });
      members.push({ member_hash: idHash, payer_id: payerIds[0] ?? null });
      if (idHash === null) continue;
      for (const line of claim.lines) {
        const date = lineDate(claim, line);
        if (date === null) continue;
        for (const p of payerIds) {
          const k = `${idHash}|${p}|${date}`;
          if (!found.has(k)) found.set(k, await deps.estimatesFor(idHash, p, date));
        }
      }
    }
    claims += rem.claims.length;
    const matched = matchRemittance(rem, { payerIds, hash: deps.hash, candidates: (h, p, d) => found.get(`${h}|${p}|${d}`) ?? [] });
    lines.push(...matched.map((m) => ({ ...m, transaction: t + 1 })));
  }
  const matched = lines.filter((l) => l.estimate_id !== null).length;
  return { claims, service_lines: lines.length, matched, unmatched: lines.length - matched, warnings: read.warnings, lines, members };
}

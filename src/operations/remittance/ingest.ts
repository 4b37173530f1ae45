/**
 * A remittance received: read (x12/remittance), its payer resolved through the directory, each line
 * matched to a kept estimate and compared (docs/remittances.md). The store is reached through the
 * functions handed in; nothing here knows HTTP.
 */
import type { PayerNetwork } from '../../payers/network.ts';
import { readRemittances } from '../../x12/remittance/read-835.ts';
import { lineDate } from '../../x12/remittance/shares.ts';
import type { Remittance } from '../../x12/remittance/types.ts';
import type { ParseResult } from '../../x12/result.ts';
import type { KeptEstimate, KeyedHash } from './kept-estimate.ts';
import { matchLine, memberIdOf, type LineMatch } from './match.ts';
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
  /**
   * One entry per claim in file order (claim_no 1-based across the file's transactions): the keyed
   * hash of its payer and payer claim control number (CLP07; null without either), its payment, and
   * whether it is a reversal, for reversals and corrections (docs/remittances.md).
   */
  claim_keys: { transaction: number; claim: number; claim_no: number; claim_hash: string | null; paid: number; reversal: boolean }[];
}

/** What an estimate is looked up by: a member ID's keyed hash, a payer and a date of service. */
export interface EstimateKey {
  member_id_hash: string;
  payer_id: string;
  date_of_service: string;
}

export const estimateKey = (k: EstimateKey) => `${k.member_id_hash}|${k.payer_id}|${k.date_of_service}`;

export interface IngestDeps {
  network: PayerNetwork;
  hash: KeyedHash;
  /** The kept estimates (this key's, unexpired) for each of these keys, by estimateKey; a key without any may be left out. */
  estimatesFor: (keys: EstimateKey[]) => Promise<Map<string, KeptEstimate[]>>;
  /** Reads the 835 (the server's: in a worker thread, reader.ts); readRemittances here by default. */
  read?: (text: string) => Promise<ParseResult<Remittance[]>>;
  /** Hands the event loop a turn between slices of claims (the server's waits for setImmediate). */
  pause?: () => Promise<void>;
}

/** Estimate keys looked up in one query, and claims matched between two pauses. */
const LOOKUP_SLICE = 200;
const MATCH_SLICE = 200;

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
  const read = deps.read ? await deps.read(text) : readRemittances(text);
  if (!read.ok) throw OperationErrors.unreadable835(read.error.message);
  const pause = deps.pause ?? (() => Promise.resolve());
  const lines: RemittanceLine[] = [];
  const members: IngestedRemittance['members'] = [];
  const claimKeys: IngestedRemittance['claim_keys'] = [];
  let claims = 0;
  for (const [t, rem] of read.value.entries()) {
    const payerIds = payersOf(deps.network, rem, payerId);
    // The store is asked about each member, payer and date the file names, LOOKUP_SLICE at a time; matching itself is synchronous.
    const wanted = new Map<string, EstimateKey>();
    for (const [i, claim] of rem.claims.entries()) {
      if (i > 0 && i % MATCH_SLICE === 0) await pause();
      const payerClaim = claim.payer_claim_id?.trim() ?? '';
      claimKeys.push({
        transaction: t + 1,
        claim: i + 1,
        claim_no: claimKeys.length + 1,
        // Keyed like a member ID: CLP07 identifies the patient's claim, so the store holds its hash only.
        claim_hash: payerIds[0] !== undefined && payerClaim !== '' ? deps.hash({ member_id: `claim:${payerIds[0]}:${payerClaim}` }) : null,
        paid: claim.paid_cents,
        reversal: claim.status === 'reversal',
      });
      const memberId = memberIdOf(claim);
      const idHash = memberId === null ? null : deps.hash({ member_id: memberId });
      members.push({ member_hash: idHash, payer_id: payerIds[0] ?? null });
      if (idHash === null) continue;
      for (const line of claim.lines) {
        const date = lineDate(claim, line);
        if (date === null) continue;
        for (const p of payerIds) {
          const key = { member_id_hash: idHash, payer_id: p, date_of_service: date };
          wanted.set(estimateKey(key), key);
        }
      }
    }
    const found = new Map<string, KeptEstimate[]>();
    const keys = [...wanted.values()];
    for (let i = 0; i < keys.length; i += LOOKUP_SLICE) {
      await pause();
      for (const [k, estimates] of await deps.estimatesFor(keys.slice(i, i + LOOKUP_SLICE))) found.set(k, estimates);
    }
    claims += rem.claims.length;
    const options = {
      payerIds,
      hash: deps.hash,
      candidates: (h: string, p: string, d: string) => found.get(estimateKey({ member_id_hash: h, payer_id: p, date_of_service: d })) ?? [],
    };
    for (const [ci, claim] of rem.claims.entries()) {
      if (ci > 0 && ci % MATCH_SLICE === 0) await pause();
      for (const [li, line] of claim.lines.entries()) lines.push({ ...matchLine(claim, ci, line, li, options), transaction: t + 1 });
    }
  }
  const matched = lines.filter((l) => l.estimate_id !== null).length;
  return { claims, service_lines: lines.length, matched, unmatched: lines.length - matched, warnings: read.warnings, lines, members, claim_keys: claimKeys };
}

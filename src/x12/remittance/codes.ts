/**
 * The 835 code lists the remittance reader decides, as data (codes/*.json): claim status (CLP02),
 * adjustment group (CAS01), claim adjustment reason (CARC, an external list: what it does not list is
 * decided by rule) and provider-level reason (PLB03-1). docs/remittances.md says what each decides.
 */
import carc from './codes/carc.json' with { type: 'json' };
import casGroup from './codes/cas-group.json' with { type: 'json' };
import clp02 from './codes/clp02.json' with { type: 'json' };
import memberIds from './codes/member-ids.json' with { type: 'json' };
import plb from './codes/plb.json' with { type: 'json' };
import type { ClaimStatus, ShareKind } from './types.ts';

interface Entry {
  name: string;
}

/** `table[code]`, own keys only (a code such as "constructor" must not find Object.prototype's). */
function entry<T extends Entry>(codes: Readonly<Record<string, T>>, code: string): T | null {
  return Object.hasOwn(codes, code) ? codes[code]! : null;
}

const statuses = clp02.codes as Readonly<Record<string, Entry & { status: ClaimStatus }>>;
const groups = casGroup.codes as Readonly<Record<string, Entry & { side: 'member' | 'provider' | 'other' }>>;
const reasons = carc.codes as Readonly<Record<string, Entry & { cause: string; kind?: ShareKind }>>;
const causes = carc.causes as Readonly<Record<string, string>>;

export function claimStatusOf(code: string): ClaimStatus {
  return entry(statuses, code)?.status ?? 'unknown';
}

/** Whether a CAS group is owed by the member (PR); null for a group outside CAS01's list. */
export function memberOwes(group: string): boolean | null {
  const g = entry(groups, group);
  return g === null ? null : g.side === 'member';
}

export function isAdjustmentGroup(group: string): boolean {
  return entry(groups, group) !== null;
}

/** The kind of member share a PR reason is; a reason the list does not give a kind is 'other'. */
export function shareKindOf(reason: string): ShareKind {
  return entry(reasons, reason)?.kind ?? 'other';
}

/** The cause a reason names (carc.json `causes`), 'other' for an unlisted reason. */
export function causeOf(reason: string): string {
  return entry(reasons, reason)?.cause ?? 'other';
}

/** The cause in words, for explanations. */
export function causeWords(cause: string): string {
  return Object.hasOwn(causes, cause) ? causes[cause]! : cause;
}

export function reasonName(reason: string): string | null {
  return entry(reasons, reason)?.name ?? null;
}

export function providerAdjustmentName(reason: string): string | null {
  return entry(plb.codes as Readonly<Record<string, Entry>>, reason)?.name ?? null;
}

/** Whether an NM108 qualifier of NM1 IL, QC or 74 carries the payer's member ID (codes/member-ids.json). */
export function carriesMemberId(qualifier: string | null): boolean {
  return qualifier !== null && entry(memberIds.codes as Readonly<Record<string, Entry & { member_id: boolean }>>, qualifier)?.member_id === true;
}

/** The codes each table lists, for the completeness test against the TR3's map. */
export const LISTED = {
  clp02: Object.keys(clp02.codes),
  cas01: Object.keys(casGroup.codes),
  carc: Object.keys(carc.codes),
  plb: Object.keys(plb.codes),
  memberIds: Object.keys(memberIds.codes),
} as const;

/**
 * Stedi's payer list as JSON (GET /payers: `{items: [...]}`, or the bare array): each record's
 * primaryPayerId is the payer_id and the connection's payer ID; displayName (else names[0]) the name;
 * aliases[] and stediId the aliases; transactionSupport.eligibilityCheck the eligibility.
 */
import { Type, type Static } from 'typebox';
import type { Eligibility } from '../../store/payer-catalog.ts';
import { NAME_MAX, PAYER_ID, listedRecords, refuseBadRecords, repeatedIds, schemaProblems, usableAliases, type PayerList } from './imported-payer.ts';

const Support = Type.Enum(['SUPPORTED', 'ENROLLMENT_REQUIRED', 'NOT_SUPPORTED']);

/** The fields of a Stedi payer record we read; Stedi's others (coverageTypes, operatingStates...) pass. */
const StediPayerRecord = Type.Object({
  stediId: Type.Optional(Type.String()),
  primaryPayerId: Type.String({ pattern: PAYER_ID.source }),
  displayName: Type.Optional(Type.String()),
  names: Type.Optional(Type.Array(Type.String())),
  aliases: Type.Optional(Type.Array(Type.String())),
  transactionSupport: Type.Optional(Type.Object({ eligibilityCheck: Type.Optional(Support) })),
});

export const STEDI_SUPPORT: Record<string, Eligibility> = {
  SUPPORTED: 'supported',
  ENROLLMENT_REQUIRED: 'enrollment_required',
  NOT_SUPPORTED: 'not_supported',
};

export function parseStediPayers(text: string): PayerList {
  const list = listedRecords(text, 'items', 'not Stedi\'s payer list: expected {"items": [...]} (GET /payers) or an array of payer records');
  const problems: string[] = [];
  const notes: string[] = [];
  const payers: PayerList['payers'] = [];
  const repeated = repeatedIds('primaryPayerId');
  list.items.forEach((record, i) => {
    const where = `${list.at}[${i}]`;
    const bad = schemaProblems(StediPayerRecord, record);
    if (bad.length > 0) return void problems.push(`${where}: ${bad.join(', ')}`);
    const p = record as Static<typeof StediPayerRecord>;
    const id = p.primaryPayerId;
    const name = (p.displayName?.trim() || p.names?.find((n) => n.trim() !== '')?.trim() || '').slice(0, NAME_MAX);
    if (name === '') return void problems.push(`${where}: no displayName or names`);
    const repeat = repeated(id, where);
    if (repeat) return void problems.push(repeat);
    payers.push({
      entry: {
        payer_id: id,
        name,
        aliases: usableAliases(id, [...(p.aliases ?? []), ...(p.stediId ? [p.stediId] : [])], where, notes),
        eligibility: STEDI_SUPPORT[p.transactionSupport?.eligibilityCheck ?? 'SUPPORTED']!,
        medicaid_state: null,
      },
      connection_payer_id: id,
    });
  });
  refuseBadRecords(problems, 'records');
  return { payers, notes };
}

/** The catalog as a flat table: the sandbox members route and the README show the same rows. */
import type { OperationName } from '../domain/schemas/requests.ts';
import { CATALOG } from './catalog.ts';

export interface SandboxMemberRow {
  member_id: string;
  first_name: string | null;
  last_name: string | null;
  dob: string | null;
  payer_id: string;
  patient_state: string | null;
  scenario: string;
  description: string;
  endpoints: OperationName[];
  expected_status: number;
  expected_error_code: string | null;
  /** Per endpoint, when it differs from the first endpoint's expectation. */
  expectations: Partial<Record<OperationName, { status: number; error_code: string | null }>>;
}

export function sandboxMemberTable(catalog = CATALOG): SandboxMemberRow[] {
  const named = catalog.members.map((m): SandboxMemberRow => {
    const endpoints = Object.keys(m.expect) as OperationName[];
    const first = m.expect[endpoints[0]!]!;
    return {
      member_id: m.member_id,
      first_name: m.person.first_name,
      last_name: m.person.last_name,
      dob: m.person.dob,
      payer_id: m.payer_id,
      patient_state: m.patient_state ?? null,
      scenario: m.scenario,
      description: m.description,
      endpoints,
      expected_status: first.status,
      expected_error_code: first.error_code,
      expectations: m.expect,
    };
  });
  const generated = catalog.suffixes.flatMap((s) => {
    const prefixes = 'byPrefix' in s.expect ? Object.keys(s.expect.byPrefix) : ['1'];
    return prefixes.map((prefix): SandboxMemberRow => {
      const e = 'byPrefix' in s.expect ? s.expect.byPrefix[prefix]! : s.expect;
      return {
        member_id: `${prefix}MH${s.suffix}`,
        first_name: null,
        last_name: null,
        dob: null,
        payer_id: '',
        patient_state: null,
        scenario: s.scenario,
        description: `${s.description} (any <digits>MH${s.suffix}; names and DOB are free)`,
        endpoints: ['estimate'],
        expected_status: e.status,
        expected_error_code: e.error_code,
        expectations: { estimate: e },
      };
    });
  });
  return [...named, ...generated];
}

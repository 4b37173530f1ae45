/** The soak's request mix: every check endpoint, good members and failing ones, and broken requests, with a tally per kind. */
export interface Tally {
  /** Answers by outcome. */
  statuses: Map<string, number>;
  latencies: number[];
}

export class Tallies {
  readonly byName = new Map<string, Tally>();

  /** `outcome` is the status and error code ("502 PAYER_FAILURE"), or why there was no answer. */
  record(name: string, outcome: string, ms: number): void {
    let t = this.byName.get(name);
    if (!t) this.byName.set(name, (t = { statuses: new Map(), latencies: [] }));
    t.statuses.set(outcome, (t.statuses.get(outcome) ?? 0) + 1);
    t.latencies.push(ms);
  }
}

export interface MixEntry {
  name: string;
  path: string;
  method?: 'GET' | 'POST';
  body?: () => string;
  contentType?: string;
}

const digits = () => String(1 + Math.floor(Math.random() * 99_999));
const person = { member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14' };

/** Members the soak's simulator answers with a fault (bench/soak.ts), and their payers. */
const FAULTY_MEMBERS: [string, string][] = [
  ['10011MHDM', 'SBX-EVERGREEN'],
  ['10012MHDM', 'SBX-EVERGREEN'],
  ['10013MHDM', 'SBX-EVERGREEN'],
  ['10016MHDM', 'SBX-HARBOR'],
];

/** One pass of this list is what each connection sends, over and over. */
export const MIX: MixEntry[] = [
  {
    name: 'estimate, known member',
    path: '/v1/estimate',
    body: () => JSON.stringify({ ...person, member_id: '10010MHNA', payer_id: 'SBX-EVERGREEN', provider_npi: '1234567893', provider_session_cost: '15000' }),
  },
  {
    name: 'estimate, fresh member each time',
    path: '/v1/estimate',
    body: () =>
      JSON.stringify({
        member_id: `${digits()}MHDM`,
        member_first_name: 'Sam',
        member_last_name: 'Doe',
        member_dob: '1980-01-01',
        payer_id: 'SBX-EVERGREEN',
        provider_npi: '1234567893',
        provider_session_cost: '20000',
      }),
  },
  {
    name: 'estimate, payer fails (RR)',
    path: '/v1/estimate',
    body: () =>
      JSON.stringify({
        member_id: '11101MHRR',
        member_first_name: 'Peter',
        member_last_name: 'Lang',
        member_dob: '1972-07-04',
        payer_id: 'SBX-EVERGREEN',
        provider_npi: '1234567893',
      }),
  },
  {
    name: 'estimate, member not found',
    path: '/v1/estimate',
    body: () =>
      JSON.stringify({
        member_id: '10100MHMNF',
        member_first_name: 'Nora',
        member_last_name: 'Quinn',
        member_dob: '1983-03-23',
        payer_id: 'SBX-EVERGREEN',
        provider_npi: '1234567893',
      }),
  },
  {
    name: 'estimate, faulty members (simulator)',
    path: '/v1/estimate',
    body: () => {
      const [member_id, payer_id] = FAULTY_MEMBERS[Math.floor(Math.random() * FAULTY_MEMBERS.length)]!;
      return JSON.stringify({ member_id, member_first_name: 'Sam', member_last_name: 'Doe', member_dob: '1980-01-01', payer_id, provider_npi: '1234567893' });
    },
  },
  { name: 'discover', path: '/v1/discover', body: () => JSON.stringify({ ...person, zip: '10001', payer_id: 'SBX-EVERGREEN' }) },
  { name: 'scan (every payer, some faulty)', path: '/v1/scan', body: () => JSON.stringify({ ...person, zip: '' }) },
  {
    name: 'medicaid',
    path: '/v1/medicaid',
    body: () =>
      JSON.stringify({ member_id: '10070MHOMCD', member_first_name: 'Luis', member_last_name: 'Herrera', member_dob: '1999-11-11', patient_state: 'NY' }),
  },
  { name: 'invalid body', path: '/v1/estimate', body: () => '{"member_id": 12, "member_dob": "1988-02-30"' },
  { name: 'not JSON', path: '/v1/discover', body: () => 'member=1', contentType: 'text/plain' },
  { name: 'payers list', path: '/v1/payers', method: 'GET' },
];

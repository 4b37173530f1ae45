/**
 * The network indicator of a JSON benefit (Stedi's and the v3 model's `inPlanNetworkIndicatorCode` and
 * `inPlanNetworkIndicator`) as EB12 (docs/estimates.md 1.1, "Network unknown"): Y, N, W as the codes
 * or their names; U ("Unknown") as U, which the 271 reader decides (code-tables/eb12.json: the row
 * prices neither network); a value neither field reads as, or two fields naming different networks,
 * written as sent, so the row is unknown and never a row for both networks. Availity states the
 * network by the list an item is in (inNetwork, outOfNetwork, notApplicableNetwork, noNetwork: all four
 * decided, availity-codes.ts EB12_BY_NETWORK), so it has no indicator of its own.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { Inquiry } from '../../src/domain/inquiry.ts';
import type { EstimateRequest } from '../../src/domain/schemas/requests.ts';
import { withoutMedicalPrice } from '../../src/operations/carve-out.ts';
import type { OperationDeps } from '../../src/operations/context.ts';
import { estimateBody } from '../../src/operations/estimate.ts';
import { decodeAnswer } from '../../src/operations/payer-answer.ts';
import { v3ToX12 } from '../../src/payers/vendors/eligibility-v3.ts';
import { stediToX12 } from '../../src/payers/vendors/stedi-read.ts';

interface Case {
  today: string;
  encounter: { date_of_service: string; procedure_code: string; place_of_service: string };
  member: { member_id: string; first_name: string; last_name: string; dob: string };
  inputs: { provider_session_cost: number };
  answer: { benefitsInformation: Record<string, unknown>[]; tradingPartnerServiceId?: string };
}
const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/vendor-review-6/${name}.json`, import.meta.url), 'utf8')) as Case;
// Stedi: the only MH copay ($25). v3: an MH copay ($30) beside an out-of-network coinsurance.
const STEDI = fixture('07-stedi-mh-copay-only-for-network-unknown');
const V3 = fixture('10-v3-copay-not-waived-for-telehealth-at-home');
const NO_DIRECTORY = { network: { payer: () => undefined } } as unknown as OperationDeps;

function inquiryOf(c: Case): Inquiry {
  return {
    trace_number: '000000001',
    payer: { id: String(c.answer.tradingPartnerServiceId ?? 'X'), name: null },
    provider: { npi: '1999999984', first_name: null, last_name: null, organization_name: 'HARBOR LIGHT COUNSELING' },
    subscriber: { member_id: c.member.member_id, first_name: c.member.first_name, last_name: c.member.last_name, dob: c.member.dob, zip: null },
    dependent: null,
    service_types: ['MH'],
    date: c.encounter.date_of_service,
    procedure_code: c.encounter.procedure_code,
    place_of_service: '11',
  };
}

/** The MH copay's EB12 as the reader writes it, and the in-network office visit's member share. */
function read(vendor: 'stedi' | 'v3', network: { code?: string; name?: string }): { eb12: string; member: unknown; status: number } {
  const c = structuredClone(vendor === 'stedi' ? STEDI : V3);
  const copay = c.answer.benefitsInformation.find((b) => b.code === 'B' && (b.serviceTypeCodes as string[]).includes('MH'))!;
  delete copay.inPlanNetworkIndicatorCode;
  delete copay.inPlanNetworkIndicator;
  delete copay.additionalInformation;
  if (network.code !== undefined) copay.inPlanNetworkIndicatorCode = network.code;
  if (network.name !== undefined) copay.inPlanNetworkIndicator = network.name;
  const inquiry = inquiryOf(c);
  const x12 = vendor === 'stedi' ? stediToX12(c.answer, inquiry) : v3ToX12(c.answer, inquiry);
  assert.ok(x12 !== null);
  const eb = x12.split('~').find((s) => /^EB\*B\*IND\*MH\*/.test(s.trim()))!;
  const r = decodeAnswer(NO_DIRECTORY, inquiry, { answer: x12, read: null });
  assert.equal(r.value.kind, 'coverage');
  if (r.value.kind !== 'coverage') throw new Error('no coverage');
  const request = {
    member_id: c.member.member_id,
    member_first_name: c.member.first_name,
    member_last_name: c.member.last_name,
    member_dob: c.member.dob,
    provider_session_cost: c.inputs.provider_session_cost,
    in_network: true,
    ...c.encounter,
    place_of_service: '11',
  } as EstimateRequest;
  const { status, body } = estimateBody(withoutMedicalPrice(r.value.coverage), request, c.today, c.encounter.date_of_service);
  return { eb12: eb.trim().split('*')[12] ?? '', member: body.member_obligation, status };
}

const PRICE = { stedi: 2500, v3: 3000 } as const;

for (const vendor of ['stedi', 'v3'] as const) {
  test(`${vendor}: Y, W or no indicator (code or name) prices the in-network visit with the copay`, () => {
    for (const network of [{ code: 'Y' }, { name: 'Yes' }, { code: 'Y', name: 'Yes' }, { code: 'W', name: 'Not Applicable' }, {}]) {
      const r = read(vendor, network);
      assert.equal(r.member, PRICE[vendor], `${JSON.stringify(network)}: EB12 ${r.eb12}`);
    }
  });

  test(`${vendor}: U, Unknown, an unreadable value or two fields that disagree never price the in-network visit (206)`, () => {
    const cases: [{ code?: string; name?: string }, string][] = [
      [{ code: 'U', name: 'Unknown' }, 'U'],
      [{ code: 'U' }, 'U'],
      [{ name: 'Unknown' }, 'U'],
      [{ code: 'X' }, 'X'],
      [{ name: 'In Network Tier 2' }, 'In Network Tier 2'],
      [{ code: 'Y', name: 'No' }, 'Y/No'],
      [{ code: 'YN' }, 'YN'],
    ];
    for (const [network, eb12] of cases) {
      const r = read(vendor, network);
      assert.equal(r.eb12.toUpperCase(), eb12.toUpperCase(), JSON.stringify(network));
      assert.equal(r.status, 206, `${JSON.stringify(network)}: ${r.status} ${String(r.member)}`);
      assert.equal(r.member, null, JSON.stringify(network));
    }
  });
}

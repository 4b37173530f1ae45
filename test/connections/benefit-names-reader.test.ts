/**
 * A benefit sent by names only prices as the same benefit sent by codes, for Stedi's reader
 * (stedi-read.ts) and the v3 reader (eligibility-v3-segments.ts): docs/estimates.md 1.1, "Closed
 * world": a vendor's value that is a name of its list is read as its code. The property is held over
 * every Stedi and v3 answer of vendor review sets 2 to 8 that sends codes and names together: every
 * code field with a name twin sent is taken out, the names kept, and the estimate must not change. A
 * name that is no name of its list is written as sent, so the row is unknown (206), never dropped.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { Encounter } from '../../src/domain/encounter.ts';
import type { Inquiry } from '../../src/domain/inquiry.ts';
import type { EstimateRequest } from '../../src/domain/schemas/requests.ts';
import { withoutMedicalPrice } from '../../src/operations/carve-out.ts';
import type { OperationDeps } from '../../src/operations/context.ts';
import { estimateBody } from '../../src/operations/estimate.ts';
import { decodeAnswer } from '../../src/operations/payer-answer.ts';
import { v3ToX12 } from '../../src/payers/vendors/eligibility-v3.ts';
import { stediToX12 } from '../../src/payers/vendors/stedi-read.ts';

type Obj = Record<string, unknown>;

interface Case {
  vendor: string;
  today: string;
  encounter: Encounter;
  member: { member_id: string; first_name: string; last_name: string; dob: string };
  inputs: { provider_session_cost: number; in_network: boolean };
  answer: Obj & { benefitsInformation?: Obj[] };
}

const READERS = { stedi: stediToX12, v3: v3ToX12 } as const;
type Vendor = keyof typeof READERS;

/** The code fields of a benefit with the name field the schemas (Stedi's, the v3 model's) pair them with. */
const BENEFIT_PAIRS = [
  ['code', 'name'],
  ['coverageLevelCode', 'coverageLevel'],
  ['insuranceTypeCode', 'insuranceType'],
  ['timeQualifierCode', 'timeQualifier'],
  ['quantityQualifierCode', 'quantityQualifier'],
  ['inPlanNetworkIndicatorCode', 'inPlanNetworkIndicator'],
] as const;
/** The same of a benefit's service delivery (HSD). */
const DELIVERY_PAIRS = [
  ['quantityQualifierCode', 'quantityQualifier'],
  ['timePeriodQualifierCode', 'timePeriodQualifier'],
  ['unitForMeasurementCode', 'unitForMeasurementQualifier'],
  ['unitForMeasurementQualifierCode', 'unitForMeasurementQualifier'],
  ['deliveryOrCalendarPatternCode', 'deliveryOrCalendarPatternQualifier'],
  ['deliveryOrCalendarPatternQualifierCode', 'deliveryOrCalendarPatternQualifier'],
  ['deliveryPatternTimeCode', 'deliveryPatternTimeQualifier'],
  ['deliveryPatternTimeQualifierCode', 'deliveryPatternTimeQualifier'],
] as const;

/** The same of a benefit's procedure (EB13-01), as Stedi and the v3 model spell it. */
const PROCEDURE_PAIRS = [
  ['productOrServiceIDQualifierCode', 'productOrServiceIDQualifier'],
  ['productOrServiceIdQualifierCode', 'productOrServiceIdQualifier'],
] as const;

/**
 * Cases whose code and name are sent disagreeing on purpose (the row unknown, read from both): taking
 * the code out would leave a readable name and another answer.
 */
const DISAGREEING = new Set(['vendor-review-7/10-v3-network-code-and-name-disagree-on-the-only-copay']);

const sent = (v: unknown) => typeof v === 'string' && v.trim() !== '';

/** Takes out of `o` each code field of `pairs` whose name is sent; how many were taken. */
function strip(o: Obj, pairs: readonly (readonly [string, string])[]): number {
  let n = 0;
  for (const [code, name] of pairs) {
    if (code in o && sent(o[name])) {
      delete o[code];
      n++;
    }
  }
  return n;
}

/** The benefits of the answer with their codes taken out where a name is sent; how many fields were taken. */
function byNames(answer: Obj & { benefitsInformation?: Obj[] }): number {
  let n = 0;
  for (const b of answer.benefitsInformation ?? []) {
    n += strip(b, BENEFIT_PAIRS);
    const codes = b.serviceTypeCodes;
    const names = b.serviceTypes;
    if (Array.isArray(codes) && Array.isArray(names) && names.length === codes.length && names.every(sent)) {
      delete b.serviceTypeCodes;
      n++;
    }
    if (b.compositeMedicalProcedureIdentifier && typeof b.compositeMedicalProcedureIdentifier === 'object')
      n += strip(b.compositeMedicalProcedureIdentifier as Obj, PROCEDURE_PAIRS);
    for (const h of Array.isArray(b.benefitsServiceDelivery) ? (b.benefitsServiceDelivery as Obj[]) : []) n += strip(h, DELIVERY_PAIRS);
  }
  return n;
}

function casesOf(vendor: Vendor): { name: string; c: Case }[] {
  const out: { name: string; c: Case }[] = [];
  for (let set = 2; set <= 8; set++) {
    const dir = new URL(`../fixtures/vendor-review-${set}/`, import.meta.url);
    for (const f of readdirSync(dir)
      .filter((x) => x.endsWith('.json'))
      .sort()) {
      const c = JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as Case;
      if (c.vendor === vendor) out.push({ name: `vendor-review-${set}/${f.slice(0, -5)}`, c });
    }
  }
  return out;
}

const NO_DIRECTORY = { network: { payer: () => undefined } } as unknown as OperationDeps;

/** The answer read by the vendor's reader and priced as /v1/estimate prices it (test/connections/vendor-review-set.test.ts). */
function estimate(vendor: Vendor, c: Case): { x12: string | null; result: unknown } {
  const inquiry: Inquiry = {
    trace_number: '000000001',
    payer: { id: typeof c.answer.tradingPartnerServiceId === 'string' ? c.answer.tradingPartnerServiceId : 'X', name: null },
    provider: { npi: '1999999984', first_name: null, last_name: null, organization_name: 'HARBOR LIGHT COUNSELING' },
    subscriber: {
      member_id: c.member.member_id,
      first_name: c.member.first_name.trim() || null,
      last_name: c.member.last_name.trim() || null,
      dob: c.member.dob,
      zip: null,
    },
    dependent: null,
    service_types: ['MH'],
    date: c.encounter.date_of_service,
    procedure_code: c.encounter.procedure_code,
    place_of_service: c.encounter.place_of_service,
  };
  const x12 = READERS[vendor](c.answer, inquiry);
  if (x12 === null) return { x12, result: null };
  const r = decodeAnswer(NO_DIRECTORY, inquiry, { answer: x12, read: null });
  if (r.value.kind !== 'coverage') return { x12, result: r.value };
  const request = {
    member_id: c.member.member_id,
    member_first_name: c.member.first_name,
    member_last_name: c.member.last_name,
    member_dob: c.member.dob,
    ...c.inputs,
    ...c.encounter,
  } as EstimateRequest;
  const { status, body } = estimateBody(withoutMedicalPrice(r.value.coverage), request, c.today, c.encounter.date_of_service);
  return { x12, result: { status, body } };
}

for (const vendor of ['stedi', 'v3'] as const) {
  test(`${vendor}: every answer of vendor review sets 2 to 8 sent by names only prices as sent by codes`, () => {
    let answers = 0;
    let fields = 0;
    for (const { name, c } of casesOf(vendor)) {
      if (DISAGREEING.has(name)) continue;
      const named = structuredClone(c);
      const taken = byNames(named.answer);
      if (taken === 0) continue;
      answers++;
      fields += taken;
      assert.deepEqual(estimate(vendor, named).result, estimate(vendor, c).result, `${name}: by names only`);
    }
    // Most answers send both fields: the property is held over many, not a handful.
    assert.ok(answers >= 30, `${vendor}: ${answers} answers with names`);
    assert.ok(fields >= 500, `${vendor}: ${fields} code fields taken out`);
  });
}

/** The names-only case of set 8 for each reader, with its MH copay row (sent by names only). */
const NAMES_ONLY = {
  stedi: 'vendor-review-8/07-stedi-mh-rows-by-names-only-family-therapy-90847',
  v3: 'vendor-review-8/16-v3-mh-rows-by-names-only-telehealth-02-intake-90791',
} as const;

function namesOnlyCase(vendor: Vendor): { c: Case; copay: Obj } {
  const found = casesOf(vendor).find((x) => x.name === NAMES_ONLY[vendor]);
  assert.ok(found, NAMES_ONLY[vendor]);
  const c = structuredClone(found.c);
  const copay = (c.answer.benefitsInformation ?? []).find(
    (b) => b.name === 'Co-Payment' && b.code === undefined && (b.serviceTypes as string[] | undefined)?.includes('Mental Health'),
  );
  assert.ok(copay, `${vendor}: the MH copay by names`);
  return { c, copay };
}

// The v3 reader writes its 271 in capitals (cleanText), Stedi's as sent: the names are matched in any case.
const statusOf = (result: unknown) => (result as { status?: number } | null)?.status;

for (const vendor of ['stedi', 'v3'] as const) {
  test(`${vendor}: the MH copay by names only reads as its codes (names matched ignoring case and punctuation)`, () => {
    const { c, copay } = namesOnlyCase(vendor);
    const before = estimate(vendor, c);
    assert.equal(statusOf(before.result), 200);
    copay.serviceTypes = ['MENTAL-HEALTH'];
    copay.name = 'co payment';
    const after = estimate(vendor, c);
    assert.match(after.x12?.replace(/~/g, '\n') ?? '', /^EB\*B\*IND\*MH\*\*\*27\*/m);
    assert.deepEqual(after.result, before.result);
  });

  for (const [element, change, written] of [
    ['EB03', (b: Obj) => (b.serviceTypes = ['Mental Wellness']), /^EB\*B\*IND\*Mental Wellness\*\*\*27\*/im],
    ['EB01', (b: Obj) => (b.name = 'Copay Amount'), /^EB\*Copay Amount\*IND\*MH\*\*\*27\*/im],
    ['EB02', (b: Obj) => (b.coverageLevel = 'Member'), /^EB\*B\*Member\*MH\*\*\*27\*/im],
    ['EB06', (b: Obj) => (b.timeQualifier = 'Per Session'), /^EB\*B\*IND\*MH\*\*\*Per Session\*/im],
  ] as const) {
    test(`${vendor}: an ${element} name that is no name of its list is written as sent and the visit is unknown (206), never dropped`, () => {
      const { c, copay } = namesOnlyCase(vendor);
      change(copay);
      const r = estimate(vendor, c);
      assert.match(r.x12?.replace(/~/g, '\n') ?? '', written);
      assert.equal(statusOf(r.result), 206, JSON.stringify(r.result));
    });
  }

  test(`${vendor}: a service type code and a name naming another code are written together as sent (206)`, () => {
    const { c, copay } = namesOnlyCase(vendor);
    copay.serviceTypeCodes = ['MH'];
    copay.serviceTypes = ['Substance Abuse'];
    const r = estimate(vendor, c);
    assert.match(r.x12?.replace(/~/g, '\n') ?? '', /^EB\*B\*IND\*MH\/Substance Abuse\*\*\*27\*/im);
    assert.equal(statusOf(r.result), 206, JSON.stringify(r.result));
  });
}

for (const vendor of ['stedi', 'v3'] as const) {
  test(`${vendor}: a procedure's qualifier by name only (EB13-01) prices as by its code; one no list holds is written as sent (206)`, () => {
    const field = vendor === 'stedi' ? 'productOrServiceIDQualifier' : 'productOrServiceIdQualifier';
    const { c, copay } = namesOnlyCase(vendor);
    const procedure = c.encounter.procedure_code;
    copay.compositeMedicalProcedureIdentifier = { [`${field}Code`]: 'HC', procedureCode: procedure };
    const byCode = estimate(vendor, c);
    copay.compositeMedicalProcedureIdentifier = {
      [field]: 'Health Care Financing Administration Common Procedural Coding System (HCPCS) Codes',
      procedureCode: procedure,
    };
    const byName = estimate(vendor, c);
    assert.match(byName.x12 ?? '', new RegExp(`\\*HC:${procedure}~`));
    assert.deepEqual(byName.result, byCode.result);
    copay.compositeMedicalProcedureIdentifier = { [field]: 'CPT Four', procedureCode: procedure };
    const unknown = estimate(vendor, c);
    assert.match(unknown.x12 ?? '', new RegExp(`\\*CPT Four:${procedure}~`, 'i'));
    assert.equal(statusOf(unknown.result), 206, JSON.stringify(unknown.result));
  });
}

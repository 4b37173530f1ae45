/**
 * Stedi as Stedi publishes itself: our schema of its API (src/payers/vendors/stedi-schema.ts) holds
 * Stedi's own examples, every request our connector sends and every answer the simulator gives; and
 * one answer reads the same through the JSON reader and through the raw 271 ("same answer, same reading").
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { Value } from 'typebox/value';
import type { TSchema } from 'typebox';
import type { Inquiry } from '../../src/domain/inquiry.ts';
import { vendorDirectory } from '../../src/payers/simulator/vendors/directory.ts';
import { STEDI_MOCK_MEMBERS, StediSimulator } from '../../src/payers/simulator/vendors/stedi.ts';
import { ENTITY_TYPE_CODES, FOLLOWUP_ACTION_CODES, RELATED_ENTITY_CODES } from '../../src/payers/vendors/stedi-codes.ts';
import { stediToX12 } from '../../src/payers/vendors/stedi-read.ts';
import { StediEligibilityAnswer, StediEligibilityRequest, StediRawX12Request, StediValidationError } from '../../src/payers/vendors/stedi-schema.ts';
import { stediPayerErrors } from '../../src/payers/vendors/stedi.ts';
import { AAA_FOLLOWUPS } from '../../src/x12/aaa.ts';
import { el, normalize271, parse270, tokenize } from '../../src/x12/index.ts';
import { d8ToIso } from '../../src/x12/values.ts';
import { TEST_TODAY, type TestServer } from '../helpers/server.ts';
import { estimateFor, serveDirectory } from './setup.ts';
import { onDay } from '../helpers/clock.ts';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../fixtures/stedi/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

function fits(schema: TSchema, value: unknown, what: string): void {
  const problems = Value.Check(schema, value)
    ? []
    : [...Value.Errors(schema, value)].slice(0, 5).map((e) => `${(e as { instancePath?: string }).instancePath} ${e.message}`);
  assert.deepEqual(problems, [], what);
}

/** The inquiry a JSON answer is read against: our trace number, and the answer's own date (its 271's BHT04). */
function inquiryFor(x12: string): Inquiry {
  const tokens = tokenize(x12);
  assert.ok(tokens.ok);
  const bht = tokens.value.segments.find((s) => s.id === 'BHT')!;
  const date = d8ToIso(el(bht, 4)) ?? TEST_TODAY;
  return {
    trace_number: 'OURTRACE1',
    payer: { id: 'X', name: null },
    provider: { npi: null, first_name: null, last_name: null, organization_name: null },
    subscriber: { member_id: null, first_name: null, last_name: null, dob: null, zip: null },
    dependent: null,
    service_types: ['MH'],
    date,
  };
}

/** The normalized reading, trace numbers left out (the JSON form is read as the answer to our own inquiry). */
function reading(x12: string): unknown {
  const r = normalize271(x12);
  assert.ok(r.ok, 'readable');
  return JSON.parse(JSON.stringify(r.value, (k, v: unknown) => (k === 'trace_number' ? undefined : v)));
}

function sameReading(answer: Record<string, unknown>, what: string): unknown {
  const x12 = answer.x12 as string;
  const fromJson = stediToX12(answer, inquiryFor(x12));
  assert.ok(fromJson, `${what}: the JSON holds an answer`);
  const read = reading(x12);
  assert.deepEqual(reading(fromJson), read, what);
  return read;
}

describe("our schema of Stedi's API holds Stedi's own examples", () => {
  test('the published answers and requests fit', () => {
    fits(StediEligibilityAnswer, fixture('published-answer-dependent.json'), 'answer');
    fits(StediEligibilityAnswer, fixture('published-answer-provider-name-rejected.json'), 'payer rejection (400)');
    fits(StediEligibilityAnswer, fixture('published-raw-x12-parse-error.json'), 'parse error (400)');
    fits(StediEligibilityAnswer, fixture('entities-answer.json'), 'our own answer');
    fits(StediEligibilityRequest, fixture('published-json-request.json'), 'JSON request');
    fits(StediRawX12Request, fixture('published-request-dependent.json'), 'raw X12 request');
  });

  test('it refuses what Stedi does not list: an entity spelled as a code, an unknown field, a bad date', () => {
    const answer = fixture('entities-answer.json');
    const benefits = answer.benefitsInformation as Record<string, unknown>[];
    const coded = { ...answer, benefitsInformation: [{ ...benefits[0], benefitsRelatedEntities: [{ entityIdentifier: 'P3', entityName: 'X' }] }] };
    assert.equal(Value.Check(StediEligibilityAnswer, coded), false);
    assert.equal(Value.Check(StediEligibilityAnswer, { ...answer, planDateInformation: { plan: '2026-01-01' } }), false);
    assert.equal(Value.Check(StediEligibilityRequest, { ...fixture('published-json-request.json'), serviceTypeCodes: ['30'] }), false);
  });
});

describe('same answer, same reading', () => {
  test("Stedi's published answer: JSON and its 271 read alike, plan dates and all", () => {
    const read = sameReading(fixture('published-answer-dependent.json'), 'published answer') as { coverage: Record<string, unknown> };
    assert.equal(read.coverage.plan_begin_date, '2024-01-01');
    assert.equal(read.coverage.plan_end_date, '2024-12-31');
    assert.equal(read.coverage.relationship_to_subscriber, 'spouse');
  });

  test("Stedi's published payer rejection (AAA 44 at 2100B, correct and resubmit) reads alike", () => {
    const read = sameReading(fixture('published-answer-provider-name-rejected.json'), 'rejection') as Record<string, unknown>;
    assert.equal(read.kind, 'rejected');
    assert.equal(read.reason_code, '44');
    assert.equal(read.followup, 'C');
    assert.equal(read.level, 'provider');
  });

  test('our answer with a PCP who is a person, a secondary payer, a carve-out vendor and a visit limit reads alike, none lost', () => {
    const read = sameReading(fixture('entities-answer.json'), 'entities') as { coverage: Record<string, unknown> };
    assert.deepEqual(read.coverage.pcp, { first_name: 'DONALD', last_name: 'WINNICOTT', npi: '1234567893', organization_name: null });
    assert.deepEqual(read.coverage.third_party_payer, { name: 'CARVEOUT BEHAVIORAL HEALTH', payer_id: '88888', phone: '8005551212' });
    assert.deepEqual(read.coverage.additional_policies, [
      { payer_name: 'STATE MEDICAID', payer_id: '77777', policy_number: null, insurance_type: 'medicaid', coordination: 'secondary' },
    ]);
    assert.equal(read.coverage.relationship_to_subscriber, 'child');
    assert.equal(read.coverage.plan_begin_date, '2026-01-01');
    assert.deepEqual((read.coverage.in_network as { visit_limit: unknown }).visit_limit, { total: 20, remaining: null }, 'benefitsServiceDelivery (HSD)');
  });
});

describe("the reader takes Stedi's names as X12 codes", () => {
  const answer = fixture('entities-answer.json');
  const withEntity = (entity: Record<string, unknown>) => ({
    ...answer,
    benefitsInformation: [{ code: 'U', serviceTypeCodes: ['MH'], benefitsRelatedEntities: [entity] }],
  });
  const nm1Of = (x12: string) => {
    const t = tokenize(x12);
    assert.ok(t.ok);
    return t.value.segments.filter((seg) => seg.id === 'NM1').at(-1)!;
  };

  test('every related-entity name, person or not, becomes its NM101 and NM102', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.entries(RELATED_ENTITY_CODES)),
        fc.constantFrom(...Object.entries(ENTITY_TYPE_CODES)),
        ([name, code], [type, typeCode]) => {
          const x12 = stediToX12(
            withEntity({ entityIdentifier: name, entityType: type, entityName: 'SOMEONE', entityFirstname: 'A' }),
            inquiryFor(answer.x12 as string),
          )!;
          const nm1 = nm1Of(x12);
          assert.equal(el(nm1, 1), code);
          assert.equal(el(nm1, 2), typeCode);
        },
      ),
    );
  });

  test('an entity name Stedi does not list is written whole as sent (the row unknown, issue 38), never cut to letters', () => {
    const x12 = stediToX12(withEntity({ entityIdentifier: 'Payroll Office', entityName: 'SOMEONE' }), inquiryFor(answer.x12 as string))!;
    assert.equal(el(nm1Of(x12), 1), 'Payroll Office');
    assert.equal(/NM1\*PA[^y]/.test(x12), false);
  });

  test('every follow-up action becomes its AAA04 code, at every level and bubbled up', () => {
    for (const [words, code] of Object.entries(FOLLOWUP_ACTION_CODES)) {
      const rejected = {
        payer: { name: 'P', payorIdentification: '1' },
        subscriber: { aaaErrors: [{ code: '75', followupAction: words }] },
        errors: [{ code: '75', followupAction: words }],
      };
      const r = normalize271(stediToX12(rejected, inquiryFor(answer.x12 as string))!);
      assert.ok(r.ok && r.value.kind === 'rejected');
      assert.equal(r.value.followup, code, words);
      assert.equal(stediPayerErrors(rejected)[0]!.followup?.toLowerCase(), AAA_FOLLOWUPS[code], words);
    }
    const unlisted = { payer: { name: 'P' }, errors: [{ code: '75', followupAction: 'Please Call Us' }] };
    const r = normalize271(stediToX12(unlisted, inquiryFor(answer.x12 as string))!);
    assert.ok(r.ok && r.value.kind === 'rejected');
    assert.equal(r.value.followup, '', 'not "P" from its first letter');
    assert.equal(stediPayerErrors(unlisted)[0]!.followup, null);
  });

  test("errors[] repeats the loops' AAA: a benefit the payer could not answer does not turn the answer into a rejection", () => {
    const benefits = answer.benefitsInformation as Record<string, unknown>[];
    const aaa = { code: '57', followupAction: 'Please Correct and Resubmit', location: 'Loop 2110D' };
    const partial = { ...answer, benefitsInformation: [...benefits, { code: '1', serviceTypeCodes: ['A6'], aaaErrors: [aaa] }], errors: [aaa] };
    const r = normalize271(stediToX12(partial, inquiryFor(answer.x12 as string))!);
    assert.ok(r.ok);
    assert.equal(r.value.kind, 'coverage');
    const x12 = stediToX12(partial, inquiryFor(answer.x12 as string))!;
    assert.equal(x12.split('AAA*').length - 1, 1, 'written once, in its benefit');
  });

  test("identifiers by Stedi's names: an other payer's policy number, the plan's group or policy number", () => {
    const benefits = answer.benefitsInformation as Record<string, unknown>[];
    const withRefs = {
      ...answer,
      subscriber: { ...(answer.subscriber as object), groupNumber: undefined },
      planInformation: { policyNumber: 'POL-77' },
      benefitsInformation: benefits.map((b) => (b.code === 'R' ? { ...b, benefitsAdditionalInformation: { insurancePolicyNumber: 'MCD-123' } } : b)),
    };
    const r = normalize271(stediToX12(withRefs, inquiryFor(answer.x12 as string))!);
    assert.ok(r.ok && r.value.kind === 'coverage');
    assert.equal(r.value.coverage.additional_policies[0]?.policy_number, 'MCD-123');
    assert.equal(r.value.coverage.group_id, 'POL-77');
  });

  test('the provider answered as a person by providerName keeps its name', () => {
    const x12 = stediToX12(answer, inquiryFor(answer.x12 as string))!;
    assert.match(x12, /NM1\*1P\*1\*FREUD\*ANNA\*\*\*\*XX\*1999999984~/);
  });
});

describe('the simulator speaks Stedi, and our requests do too', () => {
  let sim: StediSimulator;
  let servers: TestServer[] = [];
  before(async () => {
    sim = await StediSimulator.start({ clock: onDay(TEST_TODAY) });
    for (const format of ['x12', 'json'] as const) {
      const directory = vendorDirectory([{ name: 'stedi', sim }]);
      directory.connections![0]!.format = format;
      servers.push(await serveDirectory(directory));
    }
  });
  after(async () => {
    for (const s of servers) await s.close();
    servers = [];
    await sim?.close();
  });

  test('every mock member and a catalog member, through both endpoints', async () => {
    const asks = [
      ...STEDI_MOCK_MEMBERS.map((m) => estimateFor(m.payer_id, m.member_id, m.first_name, m.last_name, m.dob)),
      estimateFor('SBX-EVERGREEN', '10010MHNA', 'Avery', 'Walsh', '1988-03-14'),
    ];
    for (const server of servers) for (const ask of asks) await server.post('/v1/estimate', ask);
    assert.ok(sim.bodies.length >= asks.length * 2, `${sim.bodies.length} requests`);
    for (const [i, body] of sim.bodies.entries()) {
      const raw = typeof (body as { x12?: unknown }).x12 === 'string';
      fits(raw ? StediRawX12Request : StediEligibilityRequest, body, `request ${i}`);
      if (raw) assert.ok(parse270((body as { x12: string }).x12).ok, `request ${i}: its 270 reads`);
    }
    // Each request again, straight to the simulator: its answer fits, and both of its forms read alike.
    let compared = 0;
    for (const [i, body] of sim.bodies.slice().entries()) {
      const raw = typeof (body as { x12?: unknown }).x12 === 'string';
      const res = await fetch(`${sim.baseUrl}/change/medicalnetwork/eligibility/v3${raw ? '/raw-x12' : ''}`, {
        method: 'POST',
        headers: { authorization: 'sim', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = (await res.json()) as Record<string, unknown>;
      assert.ok(res.status === 200 || res.status === 400, `answer ${i}: HTTP ${res.status}`);
      fits(StediEligibilityAnswer, answer, `answer ${i}`);
      if (typeof answer.x12 === 'string') {
        sameReading(answer, `answer ${i}`);
        compared++;
      }
    }
    assert.ok(compared >= asks.length * 2);
  });

  test("a request outside the schema gets Stedi's validation error", async () => {
    const res = await fetch(`${sim.baseUrl}/change/medicalnetwork/eligibility/v3`, {
      method: 'POST',
      headers: { authorization: 'sim', 'content-type': 'application/json' },
      body: JSON.stringify({ tradingPartnerServiceId: '60054', provider: { npi: '123' }, subscriber: {} }),
    });
    assert.equal(res.status, 400);
    const body = await res.json();
    fits(StediValidationError, body, 'validation error');
    assert.deepEqual(
      (body as { fieldList: { path: string }[] }).fieldList.map((f) => f.path),
      ['provider.npi'],
    );
  });
});

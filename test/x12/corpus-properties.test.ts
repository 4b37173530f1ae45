/**
 * Properties of the benefit matrix over the whole 271 corpus (issue 21, docs/estimates.md section 1.1):
 * the answer never depends on the order of the 2110C/2110D loops, rows that do not apply to the
 * encounter never change it, a closed gate bills the whole session, and the explanation names every
 * EB row exactly once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { gateOf } from '../../src/domain/estimate/index.ts';
import type { EstimateRequest } from '../../src/domain/schemas/requests.ts';
import { withoutMedicalPrice } from '../../src/operations/carve-out.ts';
import { estimateBody } from '../../src/operations/estimate.ts';
import { estimateExplanation } from '../../src/operations/explain.ts';
import { normalize271, type TraceEntry } from '../../src/x12/index.ts';
import { corpus, encounterOf, personOf, type CorpusCase } from './corpus.ts';
import { d8, idOf, join, loopRuns, piecesOf, withRows, type Pieces } from './x12-pieces.ts';

/** The 271 with the loops of each run reordered by `order` (one permutation key per loop). */
function shuffled(p: Pieces, keys: number[]): string {
  const out: string[] = [];
  let k = 0;
  let i = 0;
  for (const run of loopRuns(p)) {
    out.push(...p.pieces.slice(i, run[0]![0]));
    const loops = run.map(([a, b]) => ({ segs: p.pieces.slice(a, b), key: keys[k++ % keys.length]! }));
    loops.sort((x, y) => x.key - y.key);
    for (const l of loops) out.push(...l.segs);
    i = run[run.length - 1]![1];
  }
  out.push(...p.pieces.slice(i));
  return join({ ...p, pieces: out });
}

const yearBefore = (iso: string) => `${Number(iso.slice(0, 4)) - 1}${iso.slice(4)}`;

interface Answer {
  status: number;
  body: Record<string, unknown>;
  gate: boolean;
  cost: number | null;
}

function answer(c: CorpusCase, text: string): Answer | null {
  const encounter = encounterOf(c);
  const r = normalize271(text, { encounter, memberId: c.expect.request.member_id, person: personOf(c) });
  if (!r.ok || r.value.kind !== 'coverage') return null;
  const coverage = withoutMedicalPrice(r.value.coverage);
  const req = c.expect.request as EstimateRequest;
  const { status, body } = estimateBody(coverage, req, c.expect.today, encounter.date_of_service);
  const net = req.in_network ?? true;
  const gate = gateOf(coverage, net ? coverage.in_network : coverage.out_of_network, encounter.date_of_service) !== null;
  return { status, body: body as unknown as Record<string, unknown>, gate, cost: body.provider_session_cost };
}

const cases = corpus()
  .map((c) => ({ c, p: piecesOf(c.text) }))
  .filter((x): x is { c: CorpusCase; p: Pieces } => x.p !== null && loopRuns(x.p).length > 0 && answer(x.c, x.c.text) !== null);

test('the property corpus holds most of the 271 corpus', () => {
  assert.ok(cases.length >= 100, `${cases.length} cases`);
});

test('shuffling the 2110C/2110D loops never changes the answer', () => {
  let moved = 0;
  for (const { c, p } of cases) {
    const base = answer(c, c.text)!;
    const loops = loopRuns(p).reduce((n, r) => n + r.length, 0);
    fc.assert(
      fc.property(fc.array(fc.integer(), { minLength: loops, maxLength: loops }), (keys) => {
        const text = shuffled(p, keys);
        if (text !== c.text) moved++;
        const other = answer(c, text);
        assert.ok(other, `${c.name}: the shuffled 271 reads`);
        assert.deepEqual(other.body, base.body, `${c.name}: shuffled`);
        assert.equal(other.status, base.status);
      }),
      { numRuns: 15 },
    );
  }
  assert.ok(moved > cases.length, `only ${moved} shuffles moved a loop`);
});

test('a row whose dates exclude the date of service, restricted to another procedure, or to inpatient care never changes the answer', () => {
  for (const { c, p } of cases) {
    const base = answer(c, c.text)!;
    const dos = encounterOf(c).date_of_service;
    const past = yearBefore(dos);
    const extras: string[][][] = [
      [['EB*B*IND*MH***27*1*****Y', `DTP*349*D8*${d8(past)}`]],
      [['EB*A*IND*30*****0.9****W', `DTP*292*RD8*${d8(yearBefore(past))}-${d8(past)}`]],
      [['EB*B*IND*MH***27*0*****Y*HC:99998']],
      [['EB*E*IND*MH*********Y*HC:99998'], ['EB*I*IND*MH*********N*HC:99998']],
      [['EB*E*IND*MH*********Y', `DTP*349*D8*${d8(past)}`]],
      [['EB*B*IND*MH***27*1*****Y', `DTP*348*RD8*${d8(yearBefore(past))}-${d8(past)}`]],
      [['EB*B*IND*A7***27*0*****Y'], ['EB*C*IND*MH***36*0*****Y'], ['EB*6**A7']],
    ];
    for (const rows of extras) {
      const other = answer(c, withRows(p, rows));
      assert.ok(other, `${c.name}: reads with the extra rows`);
      assert.deepEqual(other.body, base.body, `${c.name}: with ${JSON.stringify(rows)}`);
    }
  }
});

test('when a gate closes, the member owes the whole session', () => {
  for (const { c } of cases) {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), (cost) => {
        const a = answer({ ...c, expect: { ...c.expect, request: { ...c.expect.request, provider_session_cost: cost } } }, c.text)!;
        if (a.gate) {
          assert.equal(a.body.member_obligation, cost, `${c.name}`);
          assert.equal(a.body.payer_obligation, 0);
        }
      }),
      { numRuns: 5 },
    );
  }
});

test('on any date of service, a plan INACTIVE for the visit shows no copay or coinsurance (docs/estimates.md section 10)', () => {
  const shift = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  let inactive = 0;
  for (const { c } of cases) {
    fc.assert(
      fc.property(fc.integer({ min: -400, max: 400 }), (days) => {
        const dos = shift(encounterOf(c).date_of_service, days);
        const a = answer({ ...c, expect: { ...c.expect, request: { ...c.expect.request, date_of_service: dos } } }, c.text)!;
        if (a.body.plan_status !== 'INACTIVE') return;
        inactive++;
        assert.equal(a.body.copayment, null, `${c.name} on ${dos}: copayment beside INACTIVE`);
        assert.equal(a.body.coinsurance, null, `${c.name} on ${dos}: coinsurance beside INACTIVE`);
      }),
      { numRuns: 8 },
    );
  }
  assert.ok(inactive > 50, `only ${inactive} inactive answers`);
});

test('the explanation names every EB row exactly once: used, skipped or in conflict', () => {
  for (const { c, p } of cases) {
    const encounter = encounterOf(c);
    const trace: TraceEntry[] = [];
    const r = normalize271(c.text, { encounter, trace, memberId: c.expect.request.member_id, person: personOf(c) });
    assert.ok(r.ok && r.value.kind === 'coverage');
    const coverage = withoutMedicalPrice(r.value.coverage);
    const { body } = estimateBody(coverage, c.expect.request as EstimateRequest, c.expect.today, encounter.date_of_service);
    const e = estimateExplanation(coverage, body, { trace, administrator: null, date_of_service: encounter.date_of_service });
    const ebSegments = new Set<number>();
    // Piece 0 is the ISA, segment 1; a loop reordering is not involved here.
    p.pieces.forEach((piece, i) => {
      if (idOf(p, piece) === 'EB') ebSegments.add(i + 1);
    });
    const used = new Set(e.benefits.map((x) => x.segment).filter((s): s is number => s !== null));
    const skipped = e.skipped.map((x) => x.segment!);
    const conflicts = e.conflicts.map((x) => x.segment!);
    assert.equal(new Set(skipped).size, skipped.length, `${c.name}: a row skipped twice`);
    assert.equal(new Set(conflicts).size, conflicts.length, `${c.name}: a row in conflict twice`);
    for (const s of skipped) assert.ok(!used.has(s) && !conflicts.includes(s), `${c.name}: segment ${s} both skipped and named elsewhere`);
    for (const s of conflicts) assert.ok(!used.has(s), `${c.name}: segment ${s} both used and in conflict`);
    const named = new Set([...used, ...skipped, ...conflicts]);
    for (const s of named) if (s !== null) assert.ok(ebSegments.has(s), `${c.name}: segment ${s} is not an EB`);
    for (const s of ebSegments) assert.ok(named.has(s), `${c.name}: EB at segment ${s} is not named`);
  }
});

/** estimateBody's one-literal body is the Object.assign merge of its parts it replaced: same fields, same values, same key order. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { isQmb } from '../../src/domain/estimate/index.ts';
import type { Coverage, IsoDate } from '../../src/domain/coverage.ts';
import { requestedEncounter } from '../../src/domain/encounter.ts';
import type { EstimateRequest } from '../../src/domain/schemas/requests.ts';
import { estimateBody, estimateParts } from '../../src/operations/estimate.ts';
import { normalize271 } from '../../src/x12/index.ts';
import { corpus, encounterOf } from '../x12/corpus.ts';

// The merge estimateBody's one literal replaced, over the same parts.
function mergedBody(coverage: Coverage, req: EstimateRequest, today: IsoDate, dateOfService: IsoDate = today) {
  const { plan, fields, reset, partial } = estimateParts(coverage, req, today, dateOfService);
  const body = Object.assign(Object.assign({}, plan, fields), reset, {
    pcp: coverage.pcp,
    utilization_manager: coverage.utilization_manager,
    qmb_status: isQmb(coverage),
    encounter: requestedEncounter(req, today),
    ...(partial ? { error_code: partial } : {}),
  });
  return { status: partial ? 206 : 200, body };
}

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const cases = corpus().flatMap((c) => {
  const encounter = encounterOf(c);
  const r = normalize271(c.text, { encounter });
  return r.ok && r.value.kind === 'coverage' ? [{ c, coverage: r.value.coverage, date: encounter.date_of_service }] : [];
});

test('the corpus has coverages to compare', () => assert.ok(cases.length > 20, `${cases.length} cases`));

test('estimateBody equals the Object.assign merge over the 271 corpus and varied requests', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...cases),
      fc.option(fc.boolean(), { nil: undefined }),
      fc.option(fc.constantFrom('', '0', '1', '15000', '999999', 2500), { nil: undefined }),
      fc.integer({ min: -400, max: 400 }),
      fc.integer({ min: -40, max: 400 }),
      fc.option(fc.constantFrom('Avery', 'JOHN', 'x', ''), { nil: undefined }),
      (k, inNetwork, cost, todayShift, serviceShift, name) => {
        const today = addDays(k.c.expect.today, todayShift);
        const req = {
          ...(k.c.expect.request as EstimateRequest),
          ...(inNetwork === undefined ? {} : { in_network: inNetwork }),
          ...(cost === undefined ? {} : { provider_session_cost: cost as string }),
          ...(name === undefined ? {} : { member_first_name: name }),
        };
        const dateOfService = addDays(today, serviceShift);
        for (const [now, before] of [
          [estimateBody(k.coverage, req, today, dateOfService), mergedBody(k.coverage, req, today, dateOfService)],
          [estimateBody(k.coverage, req, today), mergedBody(k.coverage, req, today)],
        ] as const) {
          assert.deepStrictEqual(now, before);
          assert.deepStrictEqual(Object.keys(now.body), Object.keys(before.body));
        }
      },
    ),
    { numRuns: 3000 },
  );
});

/** estimateBody's one-literal body is the Object.assign merge it replaced: same fields, same values, same key order. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { benefitAlerts, estimate as computeEstimate, isQmb } from '../../src/domain/estimate/index.ts';
import type { Coverage, IsoDate } from '../../src/domain/coverage.ts';
import { requestedEncounter } from '../../src/domain/encounter.ts';
import { resetRules } from '../../src/domain/plan-rules.ts';
import type { EstimateRequest } from '../../src/domain/schemas/requests.ts';
import { estimateBody, sessionCostCents } from '../../src/operations/estimate.ts';
import { planFields } from '../../src/operations/present.ts';
import { normalize271 } from '../../src/x12/index.ts';
import { corpus, encounterOf } from '../x12/corpus.ts';

// estimateBody before 2026-11-27, verbatim but for the names.
function oldEstimateBody(coverage: Coverage, req: EstimateRequest, today: IsoDate, dateOfService: IsoDate = today) {
  const { fields, partial } = computeEstimate(coverage, {
    session_cost: sessionCostCents(req.provider_session_cost),
    in_network: req.in_network ?? true,
    date_of_service: dateOfService,
  });
  const reset = resetRules(coverage, today);
  const plan = planFields(coverage, { first_name: req.member_first_name, last_name: req.member_last_name, dob: req.member_dob }, today);
  plan.alerts.push(...benefitAlerts(coverage, req.in_network ?? true, dateOfService));
  if (reset.plan_reset_soon) {
    plan.alerts.push({
      code: 'PLAN_RESET_SOON',
      message:
        reset.reset_benefits_status === 'DETECTED_ACTION_REQUIRED'
          ? `The plan year resets soon and ${reset.reset_benefits?.changes.join(', ')} change${reset.reset_benefits?.changes.length === 1 ? 's' : ''}`
          : 'The plan year resets soon',
    });
  }
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
          [estimateBody(k.coverage, req, today, dateOfService), oldEstimateBody(k.coverage, req, today, dateOfService)],
          [estimateBody(k.coverage, req, today), oldEstimateBody(k.coverage, req, today)],
        ] as const) {
          assert.deepStrictEqual(now, before);
          assert.deepStrictEqual(Object.keys(now.body), Object.keys(before.body));
        }
      },
    ),
    { numRuns: 3000 },
  );
});

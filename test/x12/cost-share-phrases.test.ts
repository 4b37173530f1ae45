/** The phrases that relate cost shares in words (src/x12/benefits/cost-share-phrases.json; docs/estimates.md 1.1). */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import PHRASES from '../../src/x12/benefits/cost-share-phrases.json' with { type: 'json' };
import { namesOfficeKind, saysDeductible, shareRelations } from '../../src/x12/benefits/phrases.ts';
import { CORPUS } from './corpus.ts';

test('each phrase has its rule and a corpus fixture', () => {
  for (const p of PHRASES.phrases) {
    assert.ok(p.rule.length > 30, p.id);
    assert.ok(existsSync(new URL(`${p.fixture}.271`, CORPUS)), `${p.id}: ${p.fixture}.271`);
  }
});

test('shareRelations reads each phrase, not a negated one, and a relation only in text naming a cost share', () => {
  const cases: [string, string[]][] = [
    ['$30 COPAY OR 20% WHICHEVER IS GREATER', ['greater']],
    ['THE GREATER OF $30 OR 20 PERCENT', ['greater']],
    ['COPAY OR COINSURANCE, WHICHEVER IS LESS', ['lesser']],
    ['$25 COPAY PLUS 10% COINSURANCE', ['sum']],
    ['FACILITY CHARGES ONLY', ['facility_only']],
    ['APPLIES TO FACILITY ONLY', ['facility_only']],
    ['NOT FACILITY ONLY', []],
    ['PROFESSIONAL SERVICES ONLY', ['professional_only']],
    ['SAME AS PRIMARY CARE', ['same_as_primary_care']],
    ['SAME AS PCP OFFICE VISIT', ['same_as_primary_care']],
    ['NOT SAME AS PRIMARY CARE', []],
    ['SAME AS SPECIALIST', ['same_as_specialist']],
    ['OUTPATIENT MENTAL HEALTH OFFICE VISITS ARE PAID AT THE PRIMARY CARE COPAY', ['same_as_primary_care']],
    ['SUBJECT TO THE PCP OFFICE VISIT COPAY', ['same_as_primary_care']],
    ['THE PRIMARY CARE COPAY APPLIES', ['same_as_primary_care']],
    ['PAID AT THE SPECIALIST COPAY', ['same_as_specialist']],
    ['THE SPECIALIST COPAY APPLIES', ['same_as_specialist']],
    ['ARE NOT PAID AT THE SPECIALIST COPAY', []],
    ['NOT SUBJECT TO THE SPECIALIST COPAY. THE PRIMARY CARE COPAY APPLIES', ['same_as_primary_care']],
    ['THE SPECIALIST COPAY DOES NOT APPLY', []],
    ['PRIMARY CARE PHYSICIAN OFFICE VISIT', []],
    ['$30 COPAY OR 20% COINSURANCE', ['relates']],
    ['COPAY IN LIEU OF COINSURANCE', ['copay_only']],
    ['OFFICE VISIT COPAY APPLIES INSTEAD OF COINSURANCE', ['copay_only']],
    ['COINSURANCE APPLIES INSTEAD OF THE COPAY', ['coinsurance_only']],
    ['$30 COPAY OR 20% COINSURANCE INSTEAD OF DEDUCTIBLE', ['relates']],
    ['DEDUCTIBLE APPLIES TO FACILITY CHARGES ONLY', []],
    ['COINSURANCE 20%, FACILITY CHARGES ONLY', ['facility_only']],
    ['PRIOR AUTH OR REFERRAL REQUIRED', []],
    ['PROVIDER IS OUT NETWORK FOR MEMBER', []],
    ['COPAY APPLIES AFTER DEDUCTIBLE', []],
    ['10% COINSURANCE APPLIES AFTER THE $20 COPAY', ['sum']],
    ['20% COINSURANCE APPLIES TO THE BALANCE AFTER THE $25.00 COPAY', ['sum']],
    ['COINSURANCE ON THE REMAINING BALANCE AFTER COPAY', ['sum']],
  ];
  for (const [text, want] of cases) assert.deepEqual(shareRelations(text), want, text);
});

test('namesOfficeKind: the office visit a row is for, not one it is the same as', () => {
  assert.equal(namesOfficeKind('PRIMARY CARE PHYSICIAN', 'primary_care'), true);
  assert.equal(namesOfficeKind('PCP', 'primary_care'), true);
  assert.equal(namesOfficeKind('SAME AS PRIMARY CARE', 'primary_care'), false);
  assert.equal(namesOfficeKind('NON PCP', 'primary_care'), false);
  assert.equal(namesOfficeKind('SPECIALIST', 'specialist'), true);
  assert.equal(namesOfficeKind('SPECIALIST', 'primary_care'), false);
  assert.equal(namesOfficeKind('PAID AT THE PRIMARY CARE COPAY', 'primary_care'), false);
  assert.equal(namesOfficeKind('THE SPECIALIST COPAY APPLIES', 'specialist'), false);
});

test('a deductible statement for facility charges only says the opposite of a professional session', () => {
  assert.equal(saysDeductible('DEDUCTIBLE APPLIES TO FACILITY CHARGES ONLY'), false);
  assert.equal(saysDeductible('DEDUCTIBLE DOES NOT APPLY TO FACILITY CHARGES ONLY'), true);
  assert.equal(saysDeductible('DEDUCTIBLE APPLIES TO PROFESSIONAL SERVICES ONLY'), true);
  assert.equal(saysDeductible('DEDUCTIBLE APPLIES'), true);
});

/** What a simulated payer answers to a 270: exactly what the sandbox network would, as X12. */
import type { IsoDate } from '../../domain/coverage.ts';
import type { Inquiry } from '../../domain/inquiry.ts';
import type { Catalog } from '../../sandbox/catalog.ts';
import { build271, type PayerAnswer } from '../../x12/index.ts';
import { lookup } from '../sandbox/lookup.ts';
import { coverageAnswer } from '../sandbox/network.ts';

export type SimulatedAnswer = { kind: 'x12'; x12: string } | { kind: 'http'; status: 429 | 500 };

export function answerInquiry(catalog: Catalog, payerId: string, inquiry: Inquiry, today: IsoDate): SimulatedAnswer {
  const hit = lookup(catalog, payerId, inquiry);
  let answer: PayerAnswer;
  if (!hit) {
    answer = { kind: 'reject', level: inquiry.dependent ? 'dependent' : 'subscriber', reason_code: '75', followup: 'C' };
  } else if (hit.answer.kind === 'fault') {
    return { kind: 'http', status: hit.answer.fault === 'throttled' ? 429 : 500 };
  } else if (hit.answer.kind === 'reject') {
    answer = { kind: 'reject', level: hit.answer.level, reason_code: hit.answer.reason_code, followup: hit.answer.followup };
  } else {
    answer = coverageAnswer(catalog, hit, today);
  }
  return { kind: 'x12', x12: build271(inquiry, answer) };
}

export function busyAnswer(inquiry: Inquiry): string {
  return build271(inquiry, { kind: 'reject', level: 'payer', reason_code: '42', followup: 'R' });
}

/** The X12 270/271/999 engine: pure functions over strings, no I/O. */
export type { X12Error, ParseResult } from './result.ts';
export type { EnvelopeOptions } from './writer.ts';
export { build270 } from './build-270.ts';
export { parse270 } from './parse-270.ts';
export { build271, type PayerAnswer } from './build-271.ts';
export { benefitSegments } from './build-271-benefits.ts';
export { normalize271, normalizeInterchange, type Eligibility, type NormalizeOptions } from './normalize-271.ts';
export type { TraceEntry } from './benefit-selection.ts';
export type { CostShareFallback } from './benefits/rows.ts';
export { parse999, build999, type Ack999 } from './x999.ts';
export { detectTransactionSet } from './detect.ts';

export { errorCodeForAaa, aaaReason, AAA_RETRY_AFTER_SECONDS, RETRYABLE_AAA } from './aaa.ts';
export { recordedMember, withNumbers, type RecordedMember } from './replay.ts';
export { locateIsa, DEFAULT_DELIMITERS, type Delimiters } from './delimiters.ts';
export { tokenize, el, repetitions, components, type Segment, type Tokens } from './tokenizer.ts';
export { readInterchange, type Interchange, type FunctionalGroup, type Transaction } from './envelope.ts';
export { buildLoopTree, type LoopTree, type HlLevel, type NameLoop, type BenefitLoop, type RelatedEntity } from './loops.ts';

/**
 * Fault modes of the payer simulator, chosen per payer or per member ID:
 * { "payers": { "SBX-HARBOR": { "fault": "http_500" } }, "members": { "20001MHNA": { "fault": "aaa_42", "times": 1 } } }
 * A member fault wins over a payer fault. `times` limits a fault to the first N matching requests.
 */
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';

export const FAULT_KINDS = [
  'latency',
  'timeout',
  'http_500',
  'connection_reset',
  'malformed_x12',
  'reject_999',
  'aaa_42',
  'soap_fault',
  'wrong_payload_id',
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

export const FaultRule = Type.Object(
  {
    fault: Type.Unsafe<FaultKind>(Type.Union(FAULT_KINDS.map((k) => Type.Literal(k)))),
    /** For `latency`: how long to wait before answering normally. */
    latency_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 600_000 })),
    times: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);

export const FaultPlan = Type.Object(
  {
    payers: Type.Optional(Type.Record(Type.String(), FaultRule)),
    members: Type.Optional(Type.Record(Type.String(), FaultRule)),
  },
  { additionalProperties: false },
);

export type FaultRule = Static<typeof FaultRule>;
export type FaultPlan = Static<typeof FaultPlan>;

export function parseFaultPlan(value: unknown): FaultPlan {
  if (!Value.Check(FaultPlan, value)) {
    const first = Value.Errors(FaultPlan, value)[0];
    throw new Error(`invalid fault plan: ${(first as { instancePath?: string } | undefined)?.instancePath ?? ''} ${first?.message ?? ''}`.trim());
  }
  return value;
}

/** Picks the fault for a request and counts it against `times`. */
export class FaultTable {
  private plan: FaultPlan = {};
  private readonly used = new Map<string, number>();

  constructor(plan: FaultPlan = {}) {
    this.set(plan);
  }

  set(plan: FaultPlan): void {
    this.plan = { payers: { ...plan.payers }, members: { ...plan.members } };
    this.used.clear();
  }

  pick(payerId: string, memberId: string | null): FaultRule | null {
    const candidates: [string, FaultRule | undefined][] = [
      [`member:${memberId?.toUpperCase()}`, memberId ? this.memberRule(memberId) : undefined],
      [`payer:${payerId}`, this.plan.payers?.[payerId]],
    ];
    for (const [key, rule] of candidates) {
      if (!rule) continue;
      const n = this.used.get(key) ?? 0;
      if (rule.times !== undefined && n >= rule.times) continue;
      this.used.set(key, n + 1);
      return rule;
    }
    return null;
  }

  private memberRule(memberId: string): FaultRule | undefined {
    const members = this.plan.members ?? {};
    return members[memberId] ?? Object.entries(members).find(([k]) => k.toUpperCase() === memberId.toUpperCase())?.[1];
  }
}

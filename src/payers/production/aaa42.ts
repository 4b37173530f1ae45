/**
 * Spots AAA reject reasons in an X12 answer without a full parse: 42 (unable to respond at current
 * time) or 80 (no response received), which the connector retries, and 79 (invalid participant:
 * the payer unknown to this route), on which a payer's next route is tried (src/x12/aaa.ts holds the table).
 */
export function answersAaa(x12: string, codes: ReadonlySet<string>): boolean {
  const start = x12.indexOf('ISA');
  if (start < 0 || x12.length < start + 106) return false;
  const element = x12[start + 3]!;
  const terminator = x12[start + 105]!;
  // Nearly every answer has no AAA segment at all: no need to split it.
  if (!x12.includes(`AAA${element}`)) return false;
  return x12.split(terminator).some((raw) => {
    const parts = raw.trim().split(element);
    return parts[0] === 'AAA' && codes.has(parts[3] ?? '');
  });
}

const TRANSIENT = new Set(['42', '80']);
/** AAA 42/79/80: the route failed, not the member or the provider. */
export const ROUTE_FAILURE_AAA: ReadonlySet<string> = new Set(['42', '79', '80']);

export function answersAaa42(x12: string): boolean {
  return answersAaa(x12, TRANSIENT);
}

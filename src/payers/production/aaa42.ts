/**
 * Spots a transient AAA in an X12 answer without a full parse: 42 (unable to respond at current
 * time) or 80 (no response received), which the connector retries (src/x12/aaa.ts holds the table).
 */
export function answersAaa42(x12: string): boolean {
  const start = x12.indexOf('ISA');
  if (start < 0 || x12.length < start + 106) return false;
  const element = x12[start + 3]!;
  const terminator = x12[start + 105]!;
  // Nearly every answer has no AAA segment at all: no need to split it.
  if (!x12.includes(`AAA${element}`)) return false;
  return x12.split(terminator).some((raw) => {
    const parts = raw.trim().split(element);
    return parts[0] === 'AAA' && (parts[3] === '42' || parts[3] === '80');
  });
}

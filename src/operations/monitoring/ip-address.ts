/**
 * IP address text read into its numbers, so that ranges are matched on bits and not on spellings:
 * ::ffff:127.0.0.1, ::ffff:7f00:1 and 0:0:0:0:0:ffff:7f00:0001 are one address.
 */

/** Dotted-quad IPv4 (four decimal octets, no leading zeros past one digit) as its 4 octets, or null. */
export function parseIpv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const octets: number[] = [];
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    octets.push(n);
  }
  return octets;
}

function hextets(groups: string[]): number[] | null {
  const out: number[] = [];
  for (const g of groups) {
    if (!/^[0-9a-f]{1,4}$/i.test(g)) return null;
    out.push(parseInt(g, 16));
  }
  return out;
}

/**
 * IPv6 text (RFC 4291 section 2.2: hex groups, one "::", an IPv4 tail; a "%zone" suffix is dropped)
 * as its 8 hextets, or null.
 */
export function parseIpv6(text: string): number[] | null {
  let s = text;
  const zone = s.indexOf('%');
  if (zone !== -1) s = s.slice(0, zone);
  // An IPv4 tail is the last 32 bits, written as two hextets.
  const lastColon = s.lastIndexOf(':');
  if (lastColon === -1) return null;
  const tail = s.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseIpv4(tail);
    if (!v4) return null;
    s = `${s.slice(0, lastColon + 1)}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] === '' ? [] : hextets(halves[0]!.split(':'));
  if (!head) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const rest = halves[1] === '' ? [] : hextets(halves[1]!.split(':'));
  if (!rest) return null;
  // "::" stands for at least one zero group.
  if (head.length + rest.length > 7) return null;
  return [...head, ...Array<number>(8 - head.length - rest.length).fill(0), ...rest];
}

/** Whether the first `bits` bits of two addresses (octets or hextets, same width) agree. */
export function inPrefix(address: readonly number[], prefix: readonly number[], bits: number, width: 8 | 16): boolean {
  for (let i = 0; bits > 0; i++, bits -= width) {
    const take = Math.min(width, bits);
    const shift = width - take;
    if (address[i]! >> shift !== prefix[i]! >> shift) return false;
  }
  return true;
}

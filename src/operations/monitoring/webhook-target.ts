/**
 * Where webhooks may be sent (docs/monitoring.md, "Safety"): https only, to hosts whose every
 * address is public. Checked when the webhook is created and again at each delivery, where the
 * connection is made through a lookup that refuses the same addresses, so a name that resolved to
 * a public address at the check and to a private one at connect time (DNS rebinding) is refused.
 * COVERAGE_WEBHOOK_ALLOW_INSECURE=1 allows http and loopback addresses (development, tests);
 * link-local (cloud metadata), private, multicast and unspecified addresses stay refused.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { inPrefix, parseIpv4, parseIpv6 } from './ip-address.ts';
import { TargetRefused } from '../errors.ts';

const PRIVATE = 'is a private, link-local, multicast or unspecified address';

/** IPv4 ranges never called (RFC 6890's special-purpose registry, less the ones that are global). */
const IPV4_REFUSED: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

/**
 * IPv6 ranges never called. Besides the private, link-local and multicast ones, every range whose
 * packets are carried to or translated into an IPv4 address the range does not show as one
 * (docs/monitoring.md, "Safety"): a NAT64 gateway turns 64:ff9b::a9fe:a9fe into 169.254.169.254.
 */
const IPV6_REFUSED: readonly (readonly [string, number, string])[] = [
  ['::', 96, 'is an IPv4-compatible IPv6 address (::/96)'],
  ['::ffff:0:0:0', 96, 'is an IPv4-translated IPv6 address (::ffff:0:0:0/96)'],
  ['64:ff9b::', 96, 'is a NAT64 address (64:ff9b::/96), translated to an IPv4 address'],
  ['64:ff9b:1::', 48, 'is a NAT64 address (64:ff9b:1::/48), translated to an IPv4 address'],
  ['100::', 64, 'is a discard-only address (100::/64)'],
  ['2001::', 32, 'is a Teredo address (2001::/32), tunnelled over IPv4'],
  ['2001:db8::', 32, 'is a documentation address (2001:db8::/32)'],
  ['2002::', 16, 'is a 6to4 address (2002::/16), tunnelled to an IPv4 address'],
  ['fc00::', 7, PRIVATE],
  ['fe80::', 10, PRIVATE],
  ['fec0::', 10, 'is a site-local address (fec0::/10)'],
  ['ff00::', 8, PRIVATE],
];

const ipv4Ranges = IPV4_REFUSED.map(([net, bits]) => [parseIpv4(net)!, bits] as const);
const ipv6Ranges = IPV6_REFUSED.map(([net, bits, why]) => [parseIpv6(net)!, bits, why] as const);

function refusedIpv4(octets: readonly number[], allowInsecure: boolean): string | null {
  if (octets[0] === 127) return allowInsecure ? null : `is a loopback address${INSECURE_HINT}`;
  return ipv4Ranges.some(([net, bits]) => inPrefix(octets, net, bits, 8)) ? PRIVATE : null;
}

/** What lets a receiver on the same machine (http, loopback) be used while testing (docs/monitoring.md). */
const INSECURE_HINT = '; to test with a receiver on this machine, start the server with COVERAGE_WEBHOOK_ALLOW_INSECURE=1 (never in production)';

/** Why the address may not be called, or null when it may. */
export function refusedAddress(address: string, allowInsecure: boolean): string | null {
  const ip = address.startsWith('[') ? address.slice(1, -1) : address;
  const family = isIP(ip);
  if (family === 4) return refusedIpv4(parseIpv4(ip) ?? [0, 0, 0, 0], allowInsecure);
  const h = family === 6 ? parseIpv6(ip) : null;
  if (!h) return 'is not an IP address';
  // An IPv4-mapped address (::ffff:0:0/96, however written) is its IPv4 address on the wire.
  if (h.slice(0, 5).every((x) => x === 0) && h[5] === 0xffff) return refusedIpv4([h[6]! >> 8, h[6]! & 0xff, h[7]! >> 8, h[7]! & 0xff], allowInsecure);
  const zeros = h.slice(0, 7).every((x) => x === 0);
  if (zeros && h[7] === 1) return allowInsecure ? null : `is a loopback address${INSECURE_HINT}`;
  if (zeros && h[7] === 0) return PRIVATE;
  for (const [net, bits, why] of ipv6Ranges) if (inPrefix(h, net, bits, 16)) return why;
  return null;
}

/** Every address of a host name (the system resolver by default; tests give their own). */
export type Resolve = (host: string, options?: object) => Promise<LookupAddress[]>;

const resolveAll: Resolve = (host, options = {}) =>
  new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(host, { verbatim: true, ...options, all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

/** Checks the URL and every address its host resolves to; throws TargetRefused with a reason fit for the caller. */
export async function checkTarget(raw: string, allowInsecure: boolean, resolve: Resolve = resolveAll): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused('url must be an absolute https URL');
  }
  if (url.protocol !== 'https:' && !(allowInsecure && url.protocol === 'http:')) {
    throw new TargetRefused(allowInsecure ? 'url must be http or https' : `url must use https${url.protocol === 'http:' ? INSECURE_HINT : ''}`);
  }
  if (url.username || url.password) throw new TargetRefused('url must not carry a user name or password');
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await resolve(host)).map((a) => a.address);
    } catch {
      throw new TargetRefused(`url's host ${host} does not resolve`);
    }
  }
  for (const address of addresses) {
    const why = refusedAddress(address, allowInsecure);
    if (why) throw new TargetRefused(isIP(host) ? `url's address ${host} ${why}` : `url's host ${host} resolves to ${address}, which ${why}`);
  }
  return url;
}

/** A connect-time lookup that refuses what checkTarget refuses (undici's connect.lookup). */
export function guardedLookup(allowInsecure: boolean, resolve: Resolve = resolveAll): LookupFunction {
  return (hostname: string, options: object, callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    resolve(hostname, options).then(
      (addresses) => {
        for (const a of addresses) {
          const why = refusedAddress(a.address, allowInsecure);
          if (why) return callback(new TargetRefused(`${hostname} resolves to ${a.address}, which ${why}`), '', 0);
        }
        if ((options as { all?: boolean }).all) return callback(null, addresses);
        const first = addresses[0]!;
        callback(null, first.address, first.family);
      },
      (err: Error) => callback(err, '', 0),
    );
  };
}

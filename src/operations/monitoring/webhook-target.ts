/**
 * Where webhooks may be sent (docs/monitoring.md, "Safety"): https only, to hosts whose every
 * address is public. Checked when the webhook is created and again at each delivery, where the
 * connection is made through a lookup that refuses the same addresses, so a name that resolved to
 * a public address at the check and to a private one at connect time (DNS rebinding) is refused.
 * COVERAGE_WEBHOOK_ALLOW_INSECURE=1 allows http and loopback addresses (development, tests);
 * link-local (cloud metadata), private, multicast and unspecified addresses stay refused.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const forbidden = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  forbidden.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
] as const) {
  forbidden.addSubnet(net, bits, 'ipv6');
}

/** Why the address may not be called, or null when it may. */
export function refusedAddress(address: string, allowInsecure: boolean): string | null {
  let ip = address.startsWith('[') ? address.slice(1, -1) : address;
  const family = isIP(ip);
  if (family === 0) return 'is not an IP address';
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is the IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) ip = mapped[1]!;
  const type = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  if (loopback.check(ip, type)) return allowInsecure ? null : 'is a loopback address';
  if (forbidden.check(ip, type)) return 'is a private, link-local, multicast or unspecified address';
  return null;
}

export class TargetRefused extends Error {
  override name = 'TargetRefused';
}

const resolveAll = (host: string) =>
  new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

/** Checks the URL and every address its host resolves to; throws TargetRefused with a reason fit for the caller. */
export async function checkTarget(raw: string, allowInsecure: boolean): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused('url must be an absolute https URL');
  }
  if (url.protocol !== 'https:' && !(allowInsecure && url.protocol === 'http:')) {
    throw new TargetRefused(allowInsecure ? 'url must be http or https' : 'url must use https');
  }
  if (url.username || url.password) throw new TargetRefused('url must not carry a user name or password');
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await resolveAll(host)).map((a) => a.address);
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
export function guardedLookup(allowInsecure: boolean): LookupFunction {
  return (hostname: string, options: object, callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      for (const a of addresses) {
        const why = refusedAddress(a.address, allowInsecure);
        if (why) return callback(new TargetRefused(`${hostname} resolves to ${a.address}, which ${why}`), '', 0);
      }
      if ((options as { all?: boolean }).all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

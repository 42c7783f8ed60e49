import { BlockList, isIP } from 'node:net';

/**
 * Which addresses a webhook may not reach unless SVC_WEBHOOK_ALLOW_PRIVATE_URLS is on (docs/webhooks.md "Which addresses a webhook may reach"):
 * a server-side request forgery guard. The ranges are IANA's special-purpose registries (RFC 6890 and its updates)
 * that are not globally reachable, plus the shared CGNAT space (RFC 6598), where cloud metadata services also live
 * (169.254.169.254 is link-local, Alibaba's 100.100.100.200 is CGNAT, AWS's fd00:ec2::254 is unique-local).
 */
const FORBIDDEN_V4: ReadonlyArray<[string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private (RFC 1918)
  ['100.64.0.0', 10], // shared address space, CGNAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the limited broadcast address
];

const FORBIDDEN_V6: ReadonlyArray<[string, number]> = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments (Teredo included)
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

const blocked = new BlockList();
for (const [net, prefix] of FORBIDDEN_V4) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of FORBIDDEN_V6) blocked.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address an IPv6 address carries (IPv4-mapped, IPv4-compatible, NAT64 or 6to4), if any. */
function embeddedV4(v6: string): string | undefined {
  const lower = v6.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const groups = expandV6(lower);
  if (!groups) return undefined;
  const v4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zeros(0, 5) && groups[5] === 0xffff) return v4Of(groups[6]!, groups[7]!); // ::ffff:a.b.c.d
  if (zeros(0, 6)) return v4Of(groups[6]!, groups[7]!); // ::a.b.c.d (deprecated compatible form)
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return v4Of(groups[6]!, groups[7]!); // NAT64 (RFC 6052)
  if (groups[0] === 0x2002) return v4Of(groups[1]!, groups[2]!); // 6to4 (RFC 3056)
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address in hexadecimal form, or undefined. */
function expandV6(v6: string): number[] | undefined {
  if (v6.includes('.')) return undefined;
  const [head, tail] = v6.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? left.length !== 8 : missing < 0) return undefined;
  return [...left, ...new Array<number>(tail === undefined ? 0 : missing).fill(0), ...right];
}

/** Why `address` (an IP literal) may not be reached, or undefined when it is a public address. */
export function forbiddenAddressReason(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return 'not an IP address';
  if (family === 4) return blocked.check(bare, 'ipv4') ? `${bare} is not a public address` : undefined;
  const v4 = embeddedV4(bare);
  if (v4 !== undefined && blocked.check(v4, 'ipv4')) return `${bare} is not a public address`;
  return blocked.check(bare, 'ipv6') ? `${bare} is not a public address` : undefined;
}

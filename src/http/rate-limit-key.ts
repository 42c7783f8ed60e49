import { isIPv4, isIPv6 } from 'node:net';

/**
 * The client a per-IP limit counts (docs/security.md "Rate limits"). An IPv4 address counts alone. An IPv6 address
 * counts by its /64: one subscriber, one machine even, is routinely given a whole /64 (RFC 6177, RFC 8981 temporary
 * addresses), so counting each address would let a client step through 2^64 of them to escape every limit. An
 * IPv4-mapped address (`::ffff:198.51.100.7`, what a dual-stack socket reports for an IPv4 client) counts as the IPv4
 * address it is. Anything else (no address at all) is counted as given.
 */
export function rateLimitKey(ip: string): string {
  const address = ip.split('%')[0]!; // a zone index (`fe80::1%eth0`) names an interface, not another client
  if (!isIPv6(address)) return ip;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address: `::` expanded, a dotted IPv4 tail read as two groups. */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (isIPv4(tail)) {
    const [a, b, c, d] = tail.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const parts = (s: string) => (s === '' ? [] : s.split(':'));
  const left = parts(head);
  const right = rest === undefined ? [] : parts(rest);
  const zeros = rest === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => parseInt(g, 16));
}

import { createHash } from 'node:crypto';
import { isIP, isIPv4, isIPv6 } from 'node:net';

/** Longer than any address: what a trusted proxy forwarded is not one, and is kept as a digest. */
const MAX_ADDRESS_LENGTH = 64;

/**
 * The unit a per-address bound counts by: an IPv4 address as it is, an IPv6 address by its /64
 * prefix. One machine or home network is normally given a whole /64 and can send from any of its
 * 2^64 addresses, so counting full IPv6 addresses would let it take as many slots as it likes.
 * IPv4-mapped IPv6 addresses (`::ffff:1.2.3.4`, what a dual-stack socket reports) count as IPv4.
 * Anything else longer than an address counts by a digest, so per-address stores keep small keys.
 */
export function addressGroup(ip: string): string {
  const address = ip.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return mapped[1]!;
  if (isIPv4(address)) return address;
  // Not an address (a proxy passing on a made-up X-Forwarded-For): a key of bounded size all the same.
  if (!isIPv6(address)) return address.length <= MAX_ADDRESS_LENGTH ? address : `#${createHash('sha256').update(address).digest('base64url').slice(0, 22)}`;
  return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
}

/**
 * A client address as a key of bounded size: an address as it is (IPv6 not grouped, unlike
 * addressGroup), anything else as addressGroup keeps it (a digest past 64 characters).
 */
export const addressKey = (ip: string): string => (isIP(ip) ? ip : addressGroup(ip));

/** The eight 16-bit groups of a valid IPv6 address, '::' and a trailing dotted IPv4 part expanded. */
function expandIPv6(address: string): string[] {
  let text = address.split('%')[0]!;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16).toString(16));
}

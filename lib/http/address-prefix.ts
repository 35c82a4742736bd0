// The network an IPv6 address belongs to, as a key: one host commonly holds a whole /64 (RFC 4291 §2.5.1, RFC 8981
// temporary addresses), so limits counted per address would let it take a new one per request. Knows no request.
import { isIP } from './ip-address';

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part read as the last two). */
function groupsOf(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16));
}

/**
 * `address` as the key its network counts under: an IPv6 address cut to its first `bits` bits and written
 * `prefix::/bits`; anything else (IPv4, a name from `Forwarded`) as it is. `bits` of 128 keeps every address apart.
 *
 * @example addressPrefix('2001:db8:7:1:aa::3', 64) // '2001:db8:7:1::/64'; addressPrefix('192.0.2.1', 64) // '192.0.2.1'
 */
export function addressPrefix(address: string, bits: number): string {
  if (bits >= 128 || isIP(address) !== 6) return address;
  const kept = groupsOf(address)
    .slice(0, Math.ceil(bits / 16))
    .map((group, index) => {
      const left = bits - index * 16;
      return left >= 16 ? group : group & ((0xffff << (16 - left)) & 0xffff);
    });
  return `${kept.map((group) => group.toString(16)).join(':')}::/${bits}`;
}

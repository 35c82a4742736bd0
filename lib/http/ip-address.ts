/**
 * IP addresses as text: whether a text is one (RFC 791 dotted quad, RFC 4291 section 2.2 text forms) as `node:net`'s
 * `isIP` answers, without needing Node (the client address is read on every runtime); the network an IPv6 address
 * belongs to; and which addresses are proxies of ours. Knows no request.
 */
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)){3}$/;
const GROUP = /^[0-9a-f]{1,4}$/i;
// A zone index (`fe80::1%eth0`) names the interface of a link-local address.
const ZONE = /%[0-9a-z.:-]+$/i;

/** 4 for an IPv4 address, 6 for an IPv6 one, 0 for anything else. */
export function isIP(text: string): 0 | 4 | 6 {
  if (IPV4.test(text)) return 4;
  return isIPv6(text) ? 6 : 0;
}

function isIPv6(text: string): boolean {
  const address = text.replace(ZONE, '');
  const halves = address.split('::');
  if (halves.length > 2) return false;
  const groups = halves.map((half) => (half === '' ? [] : half.split(':')));
  let count = 0;
  for (const [index, half] of groups.entries()) {
    for (const [position, group] of half.entries()) {
      // A dotted quad may stand for the last two groups only.
      const last = index === groups.length - 1 && position === half.length - 1;
      if (last && IPV4.test(group)) count += 2;
      else if (GROUP.test(group)) count += 1;
      else return false;
    }
  }
  return halves.length === 2 ? count <= 7 : count === 8;
}

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
 * One host commonly holds a whole /64 (RFC 4291 §2.5.1, RFC 8981 temporary addresses), so limits counted per address
 * would let it take a new one per request.
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

/** Whether the first `bits` bits of two addresses' groups (as `groupsOf` gives them) are the same. */
function samePrefix(groups: readonly number[], block: readonly number[], bits: number): boolean {
  for (let index = 0; index * 16 < bits; index++) {
    const left = bits - index * 16;
    const mask = left >= 16 ? 0xffff : (0xffff << (16 - left)) & 0xffff;
    if ((groups[index]! & mask) !== (block[index]! & mask)) return false;
  }
  return true;
}

/**
 * The groups of `address` in one space for both families: an IPv4 address as its IPv4-mapped IPv6 form
 * (`::ffff:a.b.c.d`), so a block written either way matches a client written either way, as `node:net`'s `BlockList`
 * compares them (Node shows an IPv4 peer of a dual-stack socket as `::ffff:10.1.2.3`).
 */
const oneSpace = (address: string, family: 4 | 6): number[] =>
  groupsOf(family === 4 ? `::ffff:${address}` : address.replace(ZONE, ''));

/**
 * A matcher of `entries` (`10.0.0.0/8`, `192.0.2.7`, `2001:db8::/32`, `::1`, `::ffff:10.0.0.0/104`); throws an `Error`
 * naming the first entry that is neither an address nor a block. An IPv4 address and its IPv4-mapped IPv6 forms are one
 * address, whichever way the entry or the client is written. Computed here, not by `node:net`'s `BlockList`, so that a
 * Worker can trust its proxies too.
 *
 * @example trustedProxies(['10.0.0.0/8'])('::ffff:10.1.2.3') // true
 */
export function trustedProxies(entries: readonly string[]): (address: string) => boolean {
  const blocks = entries.map((entry) => {
    const [address = '', prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    const bits = prefix === undefined ? undefined : /^\d{1,3}$/.test(prefix) ? Number(prefix) : Number.NaN;
    const limit = family === 4 ? 32 : 128;
    if (family === 0 || rest.length > 0 || (bits !== undefined && !(bits <= limit)))
      throw new Error(`"${entry}" is neither an IP address nor a CIDR block (such as 10.0.0.0/8 or 2001:db8::/32)`);
    // An IPv4 block's bits count after the 96 of the mapped prefix.
    return { groups: oneSpace(address, family), bits: (family === 4 ? 96 : 0) + (bits ?? limit) };
  });
  return (address) => {
    const family = isIP(address);
    if (family === 0) return false;
    const groups = oneSpace(address, family);
    return blocks.some((block) => samePrefix(groups, block.groups, block.bits));
  };
}

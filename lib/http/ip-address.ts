/** IP addresses as text, without `node:net` (the client address is read on every runtime). Knows no request. */
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)){3}$/;
const GROUP = /^[0-9a-f]{1,4}$/i;
// A zone index (`fe80::1%eth0`) names the interface of a link-local address.
const ZONE = /%[0-9a-z.:-]+$/i;

/** As `node:net`'s `isIP` (RFC 791, RFC 4291 §2.2). */
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

/** A trailing dotted IPv4 part is read as the last two groups. */
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

/** IPv6 cut to `prefix::/bits`, what limits count by: one host may hold a whole /64 (RFC 8981), a new one a request. */
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

function samePrefix(groups: readonly number[], block: readonly number[], bits: number): boolean {
  for (let index = 0; index * 16 < bits; index++) {
    const left = bits - index * 16;
    const mask = left >= 16 ? 0xffff : (0xffff << (16 - left)) & 0xffff;
    if ((groups[index]! & mask) !== (block[index]! & mask)) return false;
  }
  return true;
}

/** IPv4 as `::ffff:a.b.c.d`, so either spelling matches either, as in `BlockList` (dual-stack peers come so). */
const oneSpace = (address: string, family: 4 | 6): number[] =>
  groupsOf(family === 4 ? `::ffff:${address}` : address.replace(ZONE, ''));

/** Addresses and CIDR blocks; not `node:net`'s `BlockList`, so that a Worker can trust its proxies too. */
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

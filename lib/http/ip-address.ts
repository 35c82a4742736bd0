/**
 * Whether a text is an IP address (RFC 791 dotted quad, RFC 4291 section 2.2 text forms), as `node:net`'s `isIP`
 * answers, without needing Node: the client address is read on every runtime.
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

// Which addresses are proxies of ours: a list of IPv4 and IPv6 addresses and CIDR blocks, matched with Node's BlockList.
import { nodeBuiltin } from '../runtime/node-builtins';

/**
 * A matcher of `entries` (`10.0.0.0/8`, `192.0.2.7`, `2001:db8::/32`, `::1`); throws an `Error` naming the first
 * entry that is neither an address nor a block. Addresses are matched as `plainAddress` gives them (IPv4-mapped IPv6
 * as IPv4).
 *
 * @example trustedProxies(['10.0.0.0/8'])('10.1.2.3') // true
 */
export function trustedProxies(entries: readonly string[]): (address: string) => boolean {
  const { BlockList, isIP } = nodeBuiltin('node:net', 'framework.http.proxy.trusted-proxies');
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    const bits = prefix === undefined ? undefined : /^\d{1,3}$/.test(prefix) ? Number(prefix) : Number.NaN;
    const limit = family === 4 ? 32 : 128;
    if (family === 0 || rest.length > 0 || (bits !== undefined && !(bits <= limit)))
      throw new Error(`"${entry}" is neither an IP address nor a CIDR block (such as 10.0.0.0/8 or 2001:db8::/32)`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, bits, type);
  }
  return (address) => {
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  };
}

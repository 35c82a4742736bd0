// The client address behind proxies: the hops `X-Forwarded-For` or `Forwarded` (RFC 7239) record, read from the
// right while the one who wrote each is trusted. Knows no request and no configuration.
import { isIP } from './ip-address';
import { splitHeaderList } from './header-tokens';

/** Longest name of a node that is no IP address (`unknown`, an obfuscated `_id`) kept as it came. */
const MAX_NAME = 64;

/**
 * A node as either header names it, made plain: an IP address without port, brackets or quotes (an IPv4-mapped IPv6
 * address as IPv4, so both spellings are one client), or, for what is no address (`unknown`, an obfuscated `_id` of
 * RFC 7239 §6.3), its first 64 characters.
 *
 * @example plainAddress('"[2001:db8::17]:4711"') // '2001:db8::17'; plainAddress('192.0.2.1:80') // '192.0.2.1'
 */
export function plainAddress(node: string): string {
  let text = node.trim();
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) text = text.slice(1, -1).replace(/\\(.)/g, '$1');
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(text)) text = text.slice(0, text.indexOf(':'));
  const mapped = /^::ffff:([\d.]+)$/i.exec(text);
  if (mapped && isIP(mapped[1]!) === 4) return mapped[1]!;
  if (isIP(text) !== 0) return text.toLowerCase();
  return text.slice(0, MAX_NAME);
}

/**
 * The hops of an `X-Forwarded-For` value, the client first and the nearest proxy last.
 *
 * @example xForwardedFor('203.0.113.7, 10.0.0.2') // ['203.0.113.7', '10.0.0.2']
 */
export function xForwardedFor(value: string): string[] {
  return splitHeaderList(value).map(plainAddress);
}

/**
 * The parameters of each element of a `Forwarded` value (RFC 7239 §4), in order: names in lower case, values as
 * they came (a quoted string still quoted); the first of a name repeated within an element is kept.
 *
 * @example forwardedElements('for=192.0.2.60;Proto=http, host="a.example"') // [{for, proto}, {host: '"a.example"'}]
 */
export function forwardedElements(value: string): Map<string, string>[] {
  return splitHeaderList(value).map((element) => {
    const pairs = new Map<string, string>();
    for (const pair of splitHeaderList(element, ';')) {
      const equals = pair.indexOf('=');
      const name = pair.slice(0, equals).trim().toLowerCase();
      if (equals > 0 && !pairs.has(name)) pairs.set(name, pair.slice(equals + 1).trim());
    }
    return pairs;
  });
}

/**
 * The hops of a `Forwarded` value (RFC 7239 §4, §5.2): the `for` of each element, in order; `unknown` for an element
 * without one, so a proxy that wrote no `for` still counts as a hop.
 *
 * @example forwardedFor('for=192.0.2.60;proto=http, for="[2001:db8::17]:4711"') // ['192.0.2.60', '2001:db8::17']
 */
export function forwardedFor(value: string): string[] {
  return forwardedElements(value).map((pairs) => {
    const node = pairs.get('for');
    return node === undefined ? 'unknown' : plainAddress(node);
  });
}

/**
 * The client's address: starting from `peer` (who opened the connection), each hop to the left is taken while the
 * address it came from is `trusted` (`hop` 0 is the peer). Only a trusted proxy's word counts: whatever stands left
 * of the entry it wrote was written by the client, who can put anything there (the rule of Express's `trust proxy`
 * and Quarkus's `trusted-proxies`).
 *
 * @example clientAddress('10.0.0.1', ['1.1.1.1', '203.0.113.7'], (address) => address.startsWith('10.')) // '203.0.113.7'
 */
export function clientAddress(
  peer: string,
  hops: readonly string[],
  trusted: (address: string, hop: number) => boolean,
): string {
  let address = peer;
  for (let i = hops.length - 1, hop = 0; i >= 0 && trusted(address, hop); i--, hop++) address = hops[i]!;
  return address;
}

/**
 * How many entries of a forwarding list, counted from the right, trusted proxies wrote: the peer (`hop` 0) writes the
 * rightmost, the address it names the one left of it, and so on while each writer is `trusted` — the walk of
 * `clientAddress`. Every forwarding header a trusted proxy appends to (`X-Forwarded-Host`, `-Proto`, `Forwarded`)
 * is believed for that many entries only; one it overwrites has a single entry, believed when the peer is trusted.
 *
 * @example trustedEntries('10.0.0.1', ['1.1.1.1', '203.0.113.7'], (address) => address.startsWith('10.')) // 1
 */
export function trustedEntries(
  peer: string,
  hops: readonly string[],
  trusted: (address: string, hop: number) => boolean,
): number {
  let count = 0;
  for (let writer = peer; count <= hops.length && trusted(writer, count); writer = hops[hops.length - count] ?? '')
    count++;
  return count;
}

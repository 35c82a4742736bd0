// The client address behind proxies (`X-Forwarded-For`, `Forwarded` of RFC 7239). Knows no request or configuration.
import { isIP } from './ip-address';
import { splitHeaderList } from './header-tokens';

const MAX_NAME = 64;

/** Whether the hop `hop` (0: the peer), at `address`, is a proxy whose word is taken. */
type Trusted = (address: string, hop: number) => boolean;

/**
 * An IP address without port, brackets or quotes (IPv4-mapped IPv6 as IPv4, so both spellings are one client), or
 * the first `MAX_NAME` characters of what is none (`unknown`, an obfuscated `_id` of RFC 7239 §6.3).
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

/** The client first, the nearest proxy last. */
export function xForwardedFor(value: string): string[] {
  return splitHeaderList(value).map(plainAddress);
}

/** Each element's parameters (RFC 7239 §4): names lower-cased, values still quoted, the first of a name kept. */
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

/** Each element's `for` (RFC 7239 §5.2); `unknown` for none, so a proxy that wrote no `for` still counts as a hop. */
export function forwardedFor(value: string): string[] {
  return forwardedElements(value).map((pairs) => {
    const node = pairs.get('for');
    return node === undefined ? 'unknown' : plainAddress(node);
  });
}

/** Hops are taken while the one before is `trusted`: left of that, the client wrote what it liked (`trust proxy`). */
export function clientAddress(peer: string, hops: readonly string[], trusted: Trusted): string {
  const count = Math.min(trustedEntries(peer, hops, trusted), hops.length);
  return count === 0 ? peer : hops[hops.length - count]!;
}

/** How many entries, from the peer's on, trusted proxies wrote: a header they append to is believed for those only. */
export function trustedEntries(peer: string, hops: readonly string[], trusted: Trusted): number {
  let count = 0;
  for (let writer = peer; count <= hops.length && trusted(writer, count); writer = hops[hops.length - count] ?? '')
    count++;
  return count;
}

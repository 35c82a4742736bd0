/** A request's URL (RFC 9112 §3.2), normalized as `@hono/node-server` does, so routing never sees `/a/../b`. */
import { memoize } from './bounded-cache';

// A plain host (name or IPv4, lower case) with an optional port from 1000 to 99999.
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;
// A path and query of characters that need no escaping. Not `#`: a fragment (which a request line should not carry,
// RFC 9112 §3.2) is the URL parser's to set apart, as it is for a request handed to `fetch`.
const PLAIN_TARGET = /^\/[!$&-;=?-[\]_a-z~]*$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?#]|$)/;

/** Answered 400. */
export class RequestTargetError extends Error {}

/** A backslash in the path (not the query) is refused: some clients and servers read it as `/`. */
function refuseBackslash(target: string): void {
  const backslash = target.indexOf('\\');
  if (backslash < 0) return;
  const query = target.indexOf('?');
  if (query < 0 || backslash < query) throw new RequestTargetError('Backslash in request path');
}

// Clients send the same Host request after request: the last one's verdict is kept.
export const isPlainHost = memoize(1, (host: string) => PLAIN_HOST.test(host));

export function needsNormalizing(host: string, target: string): boolean {
  if (!isPlainHost(host) || target.charCodeAt(0) !== 47 || !PLAIN_TARGET.test(target)) return true;
  return target.includes('/.') && DOT_SEGMENT.test(target);
}

/**
 * Throws a {@link RequestTargetError} for a target in neither origin- nor absolute-form, or a `Host` not the URL's.
 * An absolute-form target names the host in place of `Host` (RFC 9112 §3.2.2), not the scheme: that is the
 * connection's, so an `https://` target sent over plain HTTP never makes `https://` links (RFC 9110 §4.2.2, §7.4).
 */
export function requestUrl(scheme: 'http' | 'https', host: string, target: string): string {
  if (target.startsWith('http://') || target.startsWith('https://')) {
    refuseBackslash(target);
    try {
      return new URL(scheme + target.slice(target.indexOf(':'))).href;
    } catch {
      throw new RequestTargetError('Invalid absolute URL');
    }
  }
  const url = `${scheme}://${host}${target}`;
  if (isPlainHost(host)) {
    if (target === '') return `${url}/`;
    if (target.charCodeAt(0) !== 47) throw new RequestTargetError('Invalid URL');
    if (PLAIN_TARGET.test(target) && !DOT_SEGMENT.test(target)) return url;
  }
  refuseBackslash(target);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RequestTargetError('Invalid URL');
  }
  if (!isPlainHost(host)) {
    const expected = (host.includes(':') ? host.replace(/:\d+$/, '') : host).toLowerCase();
    if (parsed.hostname.length !== host.length && parsed.hostname !== expected)
      throw new RequestTargetError('Invalid host header');
  }
  return parsed.href;
}

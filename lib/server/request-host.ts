/** The host a Node request is served under, checked against the allowed hosts. Knows no routes or answers. */
import type { HostRules } from '../http/allowed-hosts';
import { needsNormalizing, requestUrl } from '../http/request-target';
import { singleRawHeader } from '../context/node-request';
import { nodeHttp, type Incoming } from './node-http';

/** From the raw list (reading `headers` makes Node build its object); `null` for two (RFC 9112 §3.2: a 400). */
export function hostOf(incoming: Incoming): string | null {
  if (!(incoming instanceof nodeHttp().IncomingMessage)) return incoming.authority ?? 'localhost';
  const host = singleRawHeader(incoming.rawHeaders, 'host');
  return host === undefined ? null : (host ?? 'localhost');
}

/**
 * The scheme, host and URL (when it had to be made) the request is served as; `undefined` when the host is not
 * allowed. An absolute-form target names it (RFC 9112 §3.2.2).
 */
export function servedAs(scheme: 'http' | 'https', host: string, target: string, rules: HostRules) {
  let url = needsNormalizing(host, target) ? requestUrl(scheme, host, target) : undefined;
  const absolute = target.startsWith('http://') || target.startsWith('https://');
  const parsed = absolute ? new URL(url!) : undefined;
  if (rules.allows && !rules.allows(parsed?.host ?? host)) return undefined;
  const origin = rules.public;
  if (!origin) return { scheme, host, url };
  const path = parsed
    ? `${parsed.pathname}${parsed.search}`
    : url
      ? url.slice(url.indexOf('/', url.indexOf('//') + 2))
      : target;
  url = needsNormalizing(origin.host, path) ? requestUrl(origin.scheme, origin.host, path) : undefined;
  return { scheme: origin.scheme, host: origin.host, url };
}

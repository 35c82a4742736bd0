/**
 * The host a request is served under, from Node's request: its one `Host` header (HTTP/1.1) or `:authority`
 * (HTTP/2), checked against the allowed hosts and replaced by the public base URL's when one is configured.
 * Knows nothing of routes or answers.
 */
import type { IncomingMessage } from 'node:http';
import { nodeBuiltin } from '../runtime/node-builtins';
import type { Http2ServerRequest } from 'node:http2';
import type { HostRules } from '../http/allowed-hosts';
import { needsNormalizing, requestUrl } from '../http/request-target';
import { singleRawHeader } from '../context/node-request';

/**
 * The `Host` header from Node's raw list (reading `headers` would make Node build its header object), or `null`
 * when the request has two (RFC 9112 §3.2: a 400); HTTP/2's `:authority`.
 */
export function hostOf(incoming: IncomingMessage | Http2ServerRequest): string | null {
  if (!(incoming instanceof nodeBuiltin('node:http', 'the Node listener (listen())').IncomingMessage))
    return incoming.authority ?? 'localhost';
  const host = singleRawHeader(incoming.rawHeaders, 'host');
  return host === undefined ? null : (host ?? 'localhost');
}

/** The scheme, host and (when it had to be made) URL a request is served under. */
export interface ServedAs {
  readonly scheme: 'http' | 'https';
  readonly host: string;
  readonly url: string | undefined;
}

/**
 * What a request is served as under host rules, or `undefined` when its host is not allowed. A target in
 * absolute form names the host itself (RFC 9112 §3.2.2: the Host header is then ignored). With a public origin, the
 * request's path and query are served on that origin. Throws a `RequestTargetError` for a target that makes no URL.
 */
export function servedAs(
  scheme: 'http' | 'https',
  host: string,
  target: string,
  rules: HostRules,
): ServedAs | undefined {
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

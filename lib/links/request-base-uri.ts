// The origin a request's URL is moved onto before routing: its own, or what trusted proxies forwarded (RFC 7239,
// X-Forwarded-*), by the rule the client address is taken with, within the allowed hosts.
import { forwardedElements, forwardedFor, trustedEntries, xForwardedFor } from '../http/forwarded-for';
import { splitHeaderList } from '../http/header-tokens';

// A host with an optional port (RFC 3986 §3.2.2, reg-name or IP literal); anything else is not trusted.
const HOST = /^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
const SCHEME = /^https?$/i;

/** Which forwarding headers count, and whose word: `framework.http.proxy.*` as the client address reads them. */
export interface ForwardingRules {
  readonly header: 'x-forwarded-for' | 'forwarded';
  /** Whether the hop `hop` (0: the peer), at `address`, is a proxy whose word is taken. */
  readonly trusted: (address: string, hop: number) => boolean;
}

export interface OriginSource {
  readonly url: string;
  readonly headers: Pick<Headers, 'get'>;
  /** `undefined` in process, where no proxy can be told from a client. */
  readonly peer: string | undefined;
}

interface Forwarded {
  readonly proto?: string;
  readonly host?: string;
  readonly port?: string;
}

const unquote = (value: string | undefined): string | undefined =>
  value !== undefined && value.startsWith('"') && value.endsWith('"') && value.length >= 2
    ? value.slice(1, -1).replace(/\\(.)/g, '$1')
    : value;

/** The leftmost of the last `trusted` members of a list header: the outermost value a trusted proxy wrote. */
function believed(value: string | null, trusted: number): string | undefined {
  if (value === null || trusted === 0) return undefined;
  const members = splitHeaderList(value);
  return members[Math.max(0, members.length - trusted)];
}

/** What the trusted proxies in front of `peer` say of the request the client sent. */
function forwardedBy(headers: Pick<Headers, 'get'>, peer: string, rules: ForwardingRules): Forwarded {
  if (rules.header === 'forwarded') {
    const value = headers.get('forwarded') ?? '';
    const elements = forwardedElements(value);
    const hops = forwardedFor(value);
    const credible = elements.slice(elements.length - Math.min(trustedEntries(peer, hops, rules.trusted), hops.length));
    // The outermost trusted proxy knows best; one that wrote no host or proto leaves it to the next one in.
    const first = (name: string) => unquote(credible.find((pairs) => pairs.has(name))?.get(name));
    return { proto: first('proto'), host: first('host') };
  }
  const count = trustedEntries(peer, xForwardedFor(headers.get('x-forwarded-for') ?? ''), rules.trusted);
  return {
    proto: believed(headers.get('x-forwarded-proto'), count),
    host: believed(headers.get('x-forwarded-host'), count),
    port: believed(headers.get('x-forwarded-port'), count),
  };
}

/**
 * The origin of the request, or, with `rules` and a known peer, of the request as the client sent it to the outermost
 * trusted proxy, each forwarded value believed only for the entries trusted proxies wrote. A value that is no http(s)
 * scheme or plain host, names what no URL holds, or a host `allows` refuses, is ignored.
 *
 * @example
 * requestOrigin(
 *   { url: 'http://10.0.0.5:8080/records', peer: '10.0.0.1', headers: new Headers({ 'x-forwarded-host': 'evil.example, api.example' }) },
 *   { header: 'x-forwarded-for', trusted: (_address, hop) => hop === 0 },
 * ); // 'http://api.example'
 */
export function requestOrigin(
  source: OriginSource,
  rules: ForwardingRules | undefined,
  allows?: (host: string) => boolean,
): string {
  const own = new URL(source.url);
  if (!rules || source.peer === undefined) return own.origin;
  const forwarded = forwardedBy(source.headers, source.peer, rules);
  let { proto, host } = forwarded;
  if (proto !== undefined && !SCHEME.test(proto)) proto = undefined;
  if (host !== undefined && (!HOST.test(host) || (allows && !allows(host)))) host = undefined;
  const scheme = (proto ?? own.protocol.slice(0, -1)).toLowerCase();
  let authority = host ?? own.host;
  // X-Forwarded-Port replaces the port the proxy connected to; a host that names its own port keeps it.
  const port = forwarded.port;
  if (port !== undefined && /^\d{1,5}$/.test(port)) {
    if (host === undefined) authority = own.hostname;
    const isDefault = (scheme === 'http' && port === '80') || (scheme === 'https' && port === '443');
    if (!isDefault && !/:\d+$/.test(authority)) authority = `${authority}:${port}`;
  }
  // The syntax above lets through what no URL holds (a port past 65535, bad punycode): ignored as malformed. Parsed,
  // the origin is the one the URL will print (a host in lower case, a default port dropped).
  const origin = `${scheme}://${authority}`;
  if (origin === own.origin) return origin;
  return URL.canParse(origin) ? new URL(origin).origin : own.origin;
}

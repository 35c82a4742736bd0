// The scheme and host links are made absolute with: the request's own, or a trusted proxy's (RFC 7239), within the
// allowed hosts.

// RFC 7239 §4: forwarded-pair = token "=" value, pairs joined by ";" and elements by ",".
const FORWARDED_PAIR = /(?:^|;)\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;,\s"]*))/g;
// A host with an optional port (RFC 3986 §3.2.2, reg-name or IP literal); anything else is not trusted.
const HOST = /^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
const SCHEME = /^https?$/i;

/** What the first element of a `Forwarded` header says about the original request. */
export function parseForwarded(value: string | null | undefined): { proto?: string; host?: string } {
  if (!value) return {};
  const first = firstElement(value);
  const found: { proto?: string; host?: string } = {};
  for (const match of first.matchAll(FORWARDED_PAIR)) {
    const name = match[1].toLowerCase();
    const text = match[2] === undefined ? match[3] : match[2].replace(/\\(.)/g, '$1');
    if ((name === 'proto' || name === 'host') && found[name] === undefined) found[name] = text;
  }
  return found;
}

/** The first comma-separated element, commas inside quoted strings kept. */
function firstElement(value: string): string {
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quoted && c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) return value.slice(0, i);
  }
  return value;
}

function firstListValue(value: string | null): string | undefined {
  const first = value?.split(',', 1)[0].trim();
  return first ? first : undefined;
}

/**
 * The origin (`scheme://host[:port]`) of `url`, or, when `forwarding` is on, of the request as the client
 * sent it to a proxy: `Forwarded` (RFC 7239 §5.3, §5.4) first, else `X-Forwarded-Proto`/`-Host`/`-Port`.
 * Forwarded values that are not an http(s) scheme or a plain host are ignored, and so is a forwarded host that
 * `allows` refuses (`framework.http.allowed-hosts`).
 *
 * @example
 * requestOrigin('http://10.0.0.5:8080/records', new Headers({ 'x-forwarded-proto': 'https', 'x-forwarded-host': 'api.example' }), true)
 * // 'https://api.example'
 */
export function requestOrigin(
  url: string,
  headers: Headers,
  forwarding: boolean,
  allows?: (host: string) => boolean,
): string {
  const own = new URL(url);
  if (!forwarding) return own.origin;
  const forwarded = parseForwarded(headers.get('forwarded'));
  let proto = forwarded.proto ?? firstListValue(headers.get('x-forwarded-proto'));
  let host = forwarded.host ?? firstListValue(headers.get('x-forwarded-host'));
  if (proto !== undefined && !SCHEME.test(proto)) proto = undefined;
  if (host !== undefined && (!HOST.test(host) || (allows && !allows(host)))) host = undefined;
  const scheme = (proto ?? own.protocol.slice(0, -1)).toLowerCase();
  let authority = host ?? own.host;
  // X-Forwarded-Port replaces the port the proxy connected to; a host that names its own port keeps it.
  const port = forwarded.host === undefined ? firstListValue(headers.get('x-forwarded-port')) : undefined;
  if (port !== undefined && /^\d{1,5}$/.test(port)) {
    if (host === undefined) authority = own.hostname;
    if (!/:\d+$/.test(authority)) authority = withPort(authority, scheme, port);
  }
  return `${scheme}://${authority}`;
}

function withPort(host: string, scheme: string, port: string): string {
  const isDefault = (scheme === 'http' && port === '80') || (scheme === 'https' && port === '443');
  return isDefault ? host : `${host}:${port}`;
}

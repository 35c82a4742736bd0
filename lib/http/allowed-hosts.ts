/**
 * Which `Host` values a server answers for (`framework.http.allowed-hosts`), and the origin of a public base URL
 * (`framework.http.public-base-url`). Pure: knows nothing of requests, only of the grammar of a host.
 */
import { memoize } from './bounded-cache';

/** An entry: `name` (any port), `name:port`, `*.domain` (any name below it, not itself), `[v6]`, or `*` (any). */
const ENTRY = /^(?:\*|(?:\*\.)?[a-z0-9_~-]+(?:\.[a-z0-9_~-]+)*\.?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

interface Rule {
  readonly name: string;
  readonly port: string | undefined;
  readonly suffix: boolean;
}

/** A Host value's name (lower case, a final dot dropped) and port (`undefined` when it names none). */
function split(host: string): { name: string; port: string | undefined } {
  const close = host.startsWith('[') ? host.indexOf(']') : -1;
  const colon = host.indexOf(':', close + 1);
  const name = (colon < 0 ? host : host.slice(0, colon)).toLowerCase();
  return { name: name.endsWith('.') ? name.slice(0, -1) : name, port: colon < 0 ? undefined : host.slice(colon + 1) };
}

/** The entries that are not host patterns (to report them), or none. */
export function invalidHostEntries(entries: readonly string[]): string[] {
  return entries.filter((entry) => !ENTRY.test(entry.toLowerCase()));
}

/**
 * Whether a `Host` value (RFC 9110 §7.2: `name[:port]`) is one of `entries`, compared without case; `*` allows
 * every host. The last verdict is kept: clients send the same Host request after request.
 *
 * @example
 * const allows = allowedHosts(['api.example.com', '*.example.org']);
 * allows('API.example.com:8443'); // true
 * allows('example.org');          // false
 */
export function allowedHosts(entries: readonly string[]): (host: string) => boolean {
  if (entries.includes('*')) return () => true;
  const rules: Rule[] = entries.map((entry) => {
    const { name, port } = split(entry);
    return name.startsWith('*.') ? { name: name.slice(1), port, suffix: true } : { name, port, suffix: false };
  });
  return memoize(1, (host) => {
    const { name, port } = split(host);
    return rules.some(
      (rule) =>
        (rule.port === undefined || rule.port === port) &&
        (rule.suffix ? name.length > rule.name.length && name.endsWith(rule.name) : name === rule.name),
    );
  });
}

/** The scheme and host of a public base URL, which absolute URLs are made on instead of the request's own. */
export interface PublicOrigin {
  readonly scheme: 'http' | 'https';
  /** `name[:port]`, the port only when it is not the scheme's default. */
  readonly host: string;
  /** `scheme://host`. */
  readonly origin: string;
}

/** The origin of `url`, or `undefined` when it is not an http(s) URL without path, query or fragment. */
export function publicOrigin(url: string): PublicOrigin | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const scheme = parsed.protocol.slice(0, -1);
  if (scheme !== 'http' && scheme !== 'https') return undefined;
  if (parsed.pathname !== '/' || parsed.search !== '' || parsed.hash !== '' || url.includes('@')) return undefined;
  return { scheme, host: parsed.host, origin: parsed.origin };
}

/** What the server makes of a request's Host: which values it serves, and the origin its URLs are made on. */
export interface HostRules {
  /** Whether a Host value may be served; absent: any. */
  readonly allows?: (host: string) => boolean;
  /** The origin of the configured public base URL; absent: the request's own. */
  readonly public?: PublicOrigin;
}

/** The rules of `allowed` hosts and a `publicBaseUrl`, or `undefined` when neither is set (every Host, as sent). */
export function hostRules(allowed: readonly string[], publicBaseUrl: string | undefined): HostRules | undefined {
  const origin = publicBaseUrl === undefined ? undefined : publicOrigin(publicBaseUrl);
  if (allowed.length === 0 && origin === undefined) return undefined;
  return { allows: allowed.length === 0 ? undefined : allowedHosts(allowed), public: origin };
}

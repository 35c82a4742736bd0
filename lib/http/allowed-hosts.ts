/** `framework.http.allowed-hosts` and `.public-base-url` as host grammar. Knows nothing of requests. */
import { memoize } from './bounded-cache';

/** An entry: `name` (any port), `name:port`, `*.domain` (any name below it, not itself), `[v6]`, or `*` (any). */
const ENTRY = /^(?:\*|(?:\*\.)?[a-z0-9_~-]+(?:\.[a-z0-9_~-]+)*\.?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/** The name lower-cased, a final dot dropped. */
function split(host: string): { name: string; port: string | undefined } {
  const close = host.startsWith('[') ? host.indexOf(']') : -1;
  const colon = host.indexOf(':', close + 1);
  const name = (colon < 0 ? host : host.slice(0, colon)).toLowerCase();
  return { name: name.endsWith('.') ? name.slice(0, -1) : name, port: colon < 0 ? undefined : host.slice(colon + 1) };
}

export function invalidHostEntries(entries: readonly string[]): string[] {
  return entries.filter((entry) => !ENTRY.test(entry.toLowerCase()));
}

/** The last verdict is kept: clients send the same Host request after request. */
export function allowedHosts(entries: readonly string[]): (host: string) => boolean {
  if (entries.includes('*')) return () => true;
  const rules = entries.map((entry) => {
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

/** What absolute URLs are made on instead of the request's own origin. */
export interface PublicOrigin {
  readonly scheme: 'http' | 'https';
  /** The port only when it is not the scheme's default. */
  readonly host: string;
  readonly origin: string;
}

/** `undefined` unless an http(s) URL without path, query or fragment. */
export function publicOrigin(url: string): PublicOrigin | undefined {
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  const scheme = parsed.protocol.slice(0, -1);
  if (scheme !== 'http' && scheme !== 'https') return undefined;
  if (parsed.pathname !== '/' || parsed.search !== '' || parsed.hash !== '' || url.includes('@')) return undefined;
  return { scheme, host: parsed.host, origin: parsed.origin };
}

/** Absent fields: any Host, and the request's own origin. */
export interface HostRules {
  readonly allows?: (host: string) => boolean;
  readonly public?: PublicOrigin;
}

/** `undefined` when neither is set (every Host, as sent). */
export function hostRules(allowed: readonly string[], publicBaseUrl: string | undefined): HostRules | undefined {
  const origin = publicBaseUrl === undefined ? undefined : publicOrigin(publicBaseUrl);
  if (allowed.length === 0 && origin === undefined) return undefined;
  return { allows: allowed.length === 0 ? undefined : allowedHosts(allowed), public: origin };
}

/** DNS rebinding protection: a web page whose host name points at a local server must not reach it (403). */
import type { StageFn } from '../context/settle';
import type { RequestContext } from '../context/request-context';
import { TRANSPORT_ERROR } from './json-rpc';
import { refusalResponse } from './transport-answers';

/** The host name of a `Host` value (`[::1]:8080` → `[::1]`, `Example.com:80` → `example.com`). */
export function hostName(host: string): string {
  const text = host.trim().toLowerCase();
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    return end < 0 ? text : text.slice(0, end + 1);
  }
  const colon = text.indexOf(':');
  return colon < 0 ? text : text.slice(0, colon);
}

/** The host name of an `Origin` (`http://localhost:3000` → `localhost`); `undefined` for `null` or a malformed one. */
export function originHostName(origin: string): string | undefined {
  try {
    return new URL(origin).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

function requestHost(ctx: RequestContext): string {
  const header = ctx.headerValue('host');
  if (header !== null) return header;
  // In process (`app.fetch`), or on HTTP/2 (`:authority`), the URL carries the host.
  const url = ctx.url;
  const start = url.indexOf('://') + 3;
  const end = url.indexOf('/', start);
  return end < 0 ? url.slice(start) : url.slice(start, end);
}

/** `undefined` when any host is allowed (`*`). */
export function rebindingCheck(allowed: readonly string[]): StageFn | undefined {
  if (allowed.includes('*')) return undefined;
  const hosts = new Set(allowed);
  return (ctx) => {
    if (!hosts.has(hostName(requestHost(ctx))))
      ctx.abortWith(
        refusalResponse(403, TRANSPORT_ERROR, 'Forbidden: the Host header names a host this server does not serve'),
      );
    const origin = ctx.headerValue('origin');
    if (origin !== null) {
      const name = originHostName(origin);
      if (name === undefined || !hosts.has(name))
        ctx.abortWith(refusalResponse(403, TRANSPORT_ERROR, 'Forbidden: requests from this Origin are not allowed'));
    }
    return ctx;
  };
}

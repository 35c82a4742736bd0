/** The guard against cross-site WebSocket hijacking: an upgrade's `Origin` checked before anything else sees it. */
import type { Config } from '../config/config';
import { originMatcher } from '../cors/cors';
import { httpProblem } from '../errors/http-problem';
import { hostRules } from '../http/allowed-hosts';
import { requestOrigin } from '../links/request-base-uri';
import type { StageFn } from '../context/settle';
import type { RequestContext } from '../context/request-context';
import { peerOf, proxySettings } from '../rate-limit/client-address';
import { upgradesToWebSocket } from './upgrades';

/** The host (`name[:port]`, the scheme's default port left out) of an origin or URL; `undefined` for `null`. */
function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/** Whether `ctx` asks to become a WebSocket (`Upgrade: websocket`, RFC 6455 section 4.1). */
export function asksForWebSocket(ctx: RequestContext): boolean {
  return upgradesToWebSocket(ctx.headerValue('upgrade') ?? '');
}

/**
 * Every socket endpoint's origin check (browsers send `Origin`; CORS does not apply to sockets): the socket's own
 * origin, one CORS (when on) or `framework.websocket.allowed-origins` admits, or no `Origin` goes on; else 403.
 */
export function upgradeOriginStep(config: Config): StageFn {
  const listed = [...config.get('framework.websocket.allowed-origins')];
  if (config.get('framework.http.cors.enabled')) listed.push(...config.get('framework.http.cors.origins'));
  const allowed = originMatcher(listed);
  const hosts = hostRules(config.get('framework.http.allowed-hosts'), config.get('framework.http.public-base-url'));
  // Forwarded hosts count as elsewhere: from trusted proxies, unless a public base URL names the one origin.
  const proxy =
    config.get('framework.http.proxy.proxy-address-forwarding') && !hosts?.public ? proxySettings(config) : undefined;
  // The scheme is left out: behind a proxy that ends TLS, an https page reaches the server over http.
  const sameHost = (ctx: RequestContext, host: string): boolean =>
    host === hostOf(ctx.url) ||
    (proxy !== undefined &&
      host === hostOf(requestOrigin({ url: ctx.url, headers: ctx.headers, peer: peerOf(ctx) }, proxy, hosts?.allows)));
  return (ctx) => {
    const origin = ctx.headerValue('origin');
    if (origin === null || !asksForWebSocket(ctx) || allowed(origin)) return ctx;
    const host = hostOf(origin);
    if (host !== undefined && sameHost(ctx, host)) return ctx;
    throw httpProblem('RXREST_FORBIDDEN', 'The origin may not open this WebSocket');
  };
}

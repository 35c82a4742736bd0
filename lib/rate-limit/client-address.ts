/** The address a request counts against: its peer, or behind trusted proxies the hop the nearest untrusted wrote. */
import type { Config } from '../config/config';
import { settingError } from '../config/config-error';
import { addressPrefix, trustedProxies } from '../http/ip-address';
import { clientAddress, forwardedFor, plainAddress, xForwardedFor } from '../http/forwarded-for';
import type { RequestContext } from '../context/request-context';
import { currentRuntime } from '../runtime/runtime-name';

export type ProxySettings = ReturnType<typeof proxySettings>;

/** `framework.http.proxy.*`; a `trusted-proxies` entry that is no address or block stops the start. */
export function proxySettings(config: Config) {
  const entries = config.get('framework.http.proxy.trusted-proxies');
  /** Whether the hop `hop` (0: the peer) is a proxy whose word is taken. */
  let trusted: (address: string, hop: number) => boolean;
  try {
    const matches = trustedProxies(entries);
    // No list: the peer is the one proxy, so the entry it wrote (the rightmost) is the client.
    trusted = entries.length === 0 ? (_address, hop) => hop === 0 : (address) => matches(address);
  } catch (error) {
    throw settingError(
      'framework.http.proxy.trusted-proxies',
      entries.join(','),
      `IP addresses and CIDR blocks: ${(error as Error).message}`,
    );
  }
  return {
    forwarding: config.get('framework.http.proxy.proxy-address-forwarding'),
    header: config.get('framework.http.proxy.client-address-header'),
    trusted,
    ipv6PrefixLength: config.get('framework.http.rate-limit.ipv6-prefix-length'),
  };
}

/** What a runtime hands `fetch` beside the request: Node adapters' `incoming`, Bun's server, Deno's info. */
interface ServerBindings {
  readonly incoming?: { readonly socket?: { readonly remoteAddress?: string } };
  /** Bun's knows only the request it handed over, not one made again. */
  readonly requestIP?: (request: Request) => { readonly address?: string } | null;
  readonly remoteAddr?: { readonly hostname?: string };
}

/** On Cloudflare Workers, the `CF-Connecting-IP` the platform itself writes; `undefined` in process. */
export function peerOf(ctx: RequestContext): string | undefined {
  const bindings = ctx.environment as ServerBindings | undefined;
  const address =
    ctx.nodePeer ??
    bindings?.incoming?.socket?.remoteAddress ??
    (typeof bindings?.requestIP === 'function' ? bindings.requestIP(ctx.receivedRequest)?.address : undefined) ??
    bindings?.remoteAddr?.hostname ??
    (currentRuntime() === 'workerd' ? (ctx.headerValue('cf-connecting-ip') ?? undefined) : undefined);
  return address === undefined ? undefined : plainAddress(address);
}

/** `undefined` when no peer is known (in process). */
export function clientAddressOf(ctx: RequestContext, proxy: ProxySettings): string | undefined {
  const address = forwardedAddressOf(ctx, proxy);
  return address === undefined ? undefined : addressPrefix(address, proxy.ipv6PrefixLength);
}

function forwardedAddressOf(ctx: RequestContext, proxy: ProxySettings): string | undefined {
  const peer = peerOf(ctx);
  if (peer === undefined || !proxy.forwarding) return peer;
  const value = ctx.headerValue(proxy.header);
  if (value === null) return peer;
  return clientAddress(peer, proxy.header === 'forwarded' ? forwardedFor(value) : xForwardedFor(value), proxy.trusted);
}

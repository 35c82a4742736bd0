/**
 * The address a request counts against: the peer of its connection, or, behind proxies the configuration trusts,
 * the hop of `X-Forwarded-For` (or `Forwarded`) the nearest untrusted one wrote; an IPv6 one as its network (/64 by
 * default). Knows nothing of limits.
 */
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
  /** Whether the hop `hop` (0: the peer), at `address`, is a proxy whose word is taken. */
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
    /** The header the proxies write the client's address to. */
    header: config.get('framework.http.proxy.client-address-header'),
    trusted,
    /** The bits of an IPv6 address that name one client. */
    ipv6PrefixLength: config.get('framework.http.rate-limit.ipv6-prefix-length'),
  };
}

/** What a runtime hands `fetch` beside the request, as far as the peer's address goes. */
interface ServerBindings {
  /** Node adapters (`listen()`, `@hono/node-server`). */
  readonly incoming?: { readonly socket?: { readonly remoteAddress?: string } };
  /** Bun: the server itself is `fetch`'s second argument; it knows only the request it handed over, not one made again. */
  readonly requestIP?: (request: Request) => { readonly address?: string } | null;
  /** Deno: `Deno.serve` hands the connection's info. */
  readonly remoteAddr?: { readonly hostname?: string };
}

/**
 * The address of the peer `ctx` came from: Node's socket, Bun's `server.requestIP`, Deno's `info.remoteAddr`, or on
 * Cloudflare Workers the `CF-Connecting-IP` header the platform itself writes (a client cannot pass one through);
 * `undefined` in process.
 */
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

/** The client address of `ctx` (see the module comment); `undefined` when no peer is known (in process). */
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

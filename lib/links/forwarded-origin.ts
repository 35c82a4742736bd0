/**
 * Behind trusted proxies, the request's URL moved before routing onto the origin they forwarded, so `UriInfo`, links,
 * CORS and a socket's origin name what the client asked for, not the proxy's hop. Joined before CORS, which sees it.
 */
import type { StageFn } from '../context/settle';
import { defineFeature } from '../feature/define-feature';
import { hostRules } from '../http/allowed-hosts';
import { peerOf, proxySettings } from '../rate-limit/client-address';
import { requestOrigin, type ForwardingRules } from './request-base-uri';

function forwardedStep(rules: ForwardingRules, allows: ((host: string) => boolean) | undefined): StageFn {
  const names =
    rules.header === 'forwarded' ? ['forwarded'] : ['x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port'];
  return (ctx) => {
    // Most requests that reach a server directly carry none: nothing to read, no URL to parse.
    if (names.every((name) => ctx.headerValue(name) === null)) return ctx;
    const url = ctx.url;
    const headers = { get: (name: string) => ctx.headerValue(name) };
    const origin = requestOrigin({ url, headers, peer: peerOf(ctx) }, rules, allows);
    if (!url.startsWith(`${origin}/`)) ctx.moveOrigin(origin);
    return ctx;
  };
}

export const forwardedOriginFeature = defineFeature({
  name: 'forwarded-origin',
  settings: [
    'framework.http.proxy.proxy-address-forwarding',
    'framework.http.proxy.trusted-proxies',
    'framework.http.public-base-url',
  ],
  phases: ['receive'],
  transports: {
    answer: "the request's URL moved onto the origin trusted proxies forwarded, before routing",
    stream: 'as an answer',
    upgrade: "as an answer: the socket's own origin is the forwarded one",
  },
  build(build) {
    const { config } = build;
    const hosts = hostRules(config.get('framework.http.allowed-hosts'), config.get('framework.http.public-base-url'));
    // A configured public origin is the origin (allowed-hosts moves the URL onto it): no forwarded one can replace it.
    if (!config.get('framework.http.proxy.proxy-address-forwarding') || hosts?.public) return undefined;
    return { receive: forwardedStep(proxySettings(config), hosts?.allows) };
  },
});

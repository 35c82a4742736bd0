/** The injectable `RestLinksProvider` and the per-application link context it is made from. */
import type { WebLink } from '../http/link-header';
import { registerContextType } from '../params/context-types';
import type { EndpointInfo, RequestContext } from '../pipeline/request-context';
import { LinkRegistry } from './link-registry';
import { makeLinks } from './make-links';
import { requestOrigin } from './request-base-uri';

/** What an application knows about links: its targets, and whether proxies' forwarding headers are trusted. */
export interface LinkContext {
  readonly registry: LinkRegistry;
  /** `framework.http.proxy.proxy-address-forwarding`, unless `framework.http.public-base-url` names the origin. */
  readonly forwarding: boolean;
  /** `framework.http.allowed-hosts`: a forwarded host outside them is ignored. */
  readonly allowsHost?: (host: string) => boolean;
}

const EMPTY: LinkContext = { registry: new LinkRegistry(), forwarding: false };
const contexts = new WeakMap<EndpointInfo, LinkContext>();

/** Ties an endpoint to its application's link context, once at build time. */
export function bindLinkContext(info: EndpointInfo, context: LinkContext): void {
  contexts.set(info, context);
}

/** The link context of the request's endpoint (an empty one before routing). */
export function linkContextOf(ctx: RequestContext): LinkContext {
  return (ctx.endpoint && contexts.get(ctx.endpoint)) ?? EMPTY;
}

/** The origin links of this request are made absolute with. */
export function linkOrigin(ctx: RequestContext, context: LinkContext): string {
  return requestOrigin(ctx.url, ctx.headers, context.forwarding, context.allowsHost);
}

/**
 * Links of entity types and instances, absolute for the current request. Inject it as a parameter typed
 * `RestLinksProvider` (with or without `@Context()`).
 *
 * @example
 * \@GET \@Path('links') links(provider: RestLinksProvider): string[] {
 *   return provider.getTypeLinks(Record).map((link) => link.href);
 * }
 */
export class RestLinksProvider {
  readonly #registry: LinkRegistry;
  readonly #origin: string;

  constructor(registry: LinkRegistry, origin: string) {
    this.#registry = registry;
    this.#origin = origin;
  }

  /** Makes the provider for a request. */
  static of(ctx: RequestContext): RestLinksProvider {
    const context = linkContextOf(ctx);
    return new RestLinksProvider(context.registry, linkOrigin(ctx, context));
  }

  /** The origin (`scheme://host[:port]`) links are made absolute with. */
  get origin(): string {
    return this.#origin;
  }

  /** Links of `type` whose targets have no template variables (such as `list`). */
  getTypeLinks(type: Function): WebLink[] {
    return makeLinks(this.#registry.typeTargetsOf(type), this.#origin);
  }

  /**
   * Every link of the instance's type (its class unless `type` is given), template variables filled from
   * the instance (`{name}` when it has no such property).
   */
  getInstanceLinks(instance: object, type?: Function): WebLink[] {
    return makeLinks(this.#registry.targetsOf(type ?? instance.constructor), this.#origin, instance);
  }
}

registerContextType(RestLinksProvider, (ctx) => RestLinksProvider.of(ctx));

/** The injectable `RestLinksProvider` and the per-application link context it is made from. */
import type { WebLink } from '../http/link-header';
import { registerContextType } from '../params/context-types';
import type { EndpointInfo, RequestContext } from '../context/request-context';
import { LinkRegistry } from './link-registry';
import { makeLinks } from './make-links';

export interface LinkContext {
  readonly registry: LinkRegistry;
}

const EMPTY: LinkContext = { registry: new LinkRegistry() };
const contexts = new WeakMap<EndpointInfo, LinkContext>();

export function bindLinkContext(info: EndpointInfo, context: LinkContext): void {
  contexts.set(info, context);
}

/** Its URL's: the forwarded-origin and allowed-hosts steps have moved the URL onto the public origin before routing. */
export function linkOrigin(ctx: RequestContext): string {
  return new URL(ctx.url).origin;
}

/**
 * Links of entity types and instances, absolute for the current request: inject a parameter typed `RestLinksProvider`.
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

  static of(ctx: RequestContext): RestLinksProvider {
    // Before routing there is no endpoint: an empty registry.
    const context = (ctx.endpoint && contexts.get(ctx.endpoint)) ?? EMPTY;
    return new RestLinksProvider(context.registry, linkOrigin(ctx));
  }

  /** The origin (`scheme://host[:port]`) links are made absolute with. */
  get origin(): string {
    return this.#origin;
  }

  /** Links of `type` whose targets have no template variables (such as `list`). */
  getTypeLinks(type: Function): WebLink[] {
    return makeLinks(this.#registry.typeTargetsOf(type), this.#origin);
  }

  /** Every link of the instance's type (its class unless `type` is given), variables filled from it (else `{name}`). */
  getInstanceLinks(instance: object, type?: Function): WebLink[] {
    return makeLinks(this.#registry.targetsOf(type ?? instance.constructor), this.#origin, instance);
  }
}

registerContextType(RestLinksProvider, (ctx) => RestLinksProvider.of(ctx));

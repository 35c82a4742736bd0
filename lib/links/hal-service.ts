/** The injectable `HalService`: HAL wrappers carrying the links of the current request. */
import { registerContextType } from '../params/context-types';
import type { RequestContext } from '../context/request-context';
import { entityClass } from './make-links';
import { RestLinksProvider } from './rest-links-provider';
import { HalCollectionWrapper } from '../hal/hal-collection-wrapper';
import { HalEntityWrapper } from '../hal/hal-entity-wrapper';

/**
 * Makes HAL wrappers: entities get their instance links, collections the type links of the element type.
 * Links added later with `addLinks` may be relative; they are made absolute on the request's origin.
 * Inject it as a parameter typed `HalService`.
 *
 * @example
 * \@GET \@Path('hal-wrapped') \@Produces(RestMediaType.APPLICATION_HAL_JSON)
 * wrapped(hal: HalService) {
 *   return hal.toHalCollectionWrapper(records, 'records', Record).addLinks({ href: '/records/1', rel: 'first-record' });
 * }
 */
export class HalService {
  readonly #links: RestLinksProvider;
  readonly #resolve: (href: string) => string;

  constructor(links: RestLinksProvider) {
    this.#links = links;
    const base = `${links.origin}/`;
    this.#resolve = (href) => new URL(href, base).href;
  }

  /** Makes the service for a request. */
  static of(ctx: RequestContext): HalService {
    return new HalService(RestLinksProvider.of(ctx));
  }

  /** `list` as `{_embedded: {<collectionName>: [...]}, _links}` with the type links of `type`; items of that type get its instance links. */
  toHalCollectionWrapper<T extends object>(
    list: Iterable<T>,
    collectionName: string,
    type: Function,
  ): HalCollectionWrapper<T> {
    const items = Array.from(list, (item) => this.#wrap(item, entityClass(item, type)));
    return HalCollectionWrapper.resolving(items, collectionName, this.#resolve, this.#links.getTypeLinks(type));
  }

  /** `entity` with the instance links of its class. */
  toHalWrapper<T extends object>(entity: T, type?: Function): HalEntityWrapper<T> {
    return this.#wrap(entity, type ?? entityClass(entity, undefined));
  }

  #wrap<T extends object>(entity: T, type: Function | undefined): HalEntityWrapper<T> {
    return HalEntityWrapper.resolving(entity, this.#resolve, this.#links.getInstanceLinks(entity, type));
  }
}

registerContextType(HalService, (ctx) => HalService.of(ctx));

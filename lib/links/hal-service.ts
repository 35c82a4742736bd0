/** The injectable `HalService`: HAL wrappers carrying the links of the current request. */
import { registerContextType } from '../params/context-types';
import type { RequestContext } from '../context/request-context';
import { entityClass } from './make-links';
import { RestLinksProvider } from './rest-links-provider';
import { HalCollectionWrapper } from '../hal/hal-collection-wrapper';
import { HalEntityWrapper } from '../hal/hal-entity-wrapper';

/**
 * Makes HAL wrappers with the request's links (later `addLinks` made absolute on its origin). Inject it as a parameter.
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

  static of(ctx: RequestContext): HalService {
    return new HalService(RestLinksProvider.of(ctx));
  }

  /** `list` with the type links of `type`, its items each with their instance links. */
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

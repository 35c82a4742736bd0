/** A list of entities in HAL form: `{_embedded: {<name>: [...]}, _links: {...}}`. */
import type { WebLink } from '../http/link-header';
import type { HalEntityWrapper, HalWrapper } from './hal-entity-wrapper';
import { WithHalLinks, type HrefResolver } from './hal-link';

/**
 * A collection with links, written as `{"_embedded":{"<collectionName>":[item...]},"_links":{...}}`, each item a
 * {@link HalEntityWrapper} with its own `_links` (draft-kelly-json-hal).
 *
 * @example
 * const wrapper = halService.toHalCollectionWrapper(records, 'records', Record);
 * return wrapper.addLinks({ href: '/records/1', rel: 'first-record' });
 */
export class HalCollectionWrapper<T extends object = object> extends WithHalLinks implements HalWrapper {
  constructor(
    readonly collection: readonly HalEntityWrapper<T>[],
    readonly collectionName: string,
    ...links: WebLink[]
  ) {
    super(links);
  }

  /** Links added later are made absolute with `resolve` (for `HalService`). */
  static resolving<T extends object>(
    collection: readonly HalEntityWrapper<T>[],
    collectionName: string,
    resolve: HrefResolver,
    links: readonly WebLink[],
  ): HalCollectionWrapper<T> {
    return new HalCollectionWrapper(collection, collectionName, ...links).resolveWith(resolve);
  }

  toJSON(): Record<string, unknown> {
    return {
      _embedded: { [this.collectionName]: this.collection.map((item) => item.toJSON()) },
      _links: this.linksJSON(),
    };
  }
}

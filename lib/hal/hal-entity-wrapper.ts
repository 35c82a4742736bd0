/** One entity in HAL form: its own fields followed by `_links`. */
import type { WebLink } from '../http/link-header';
import { WithHalLinks, type HrefResolver } from './hal-link';

/** Either wrapper, for code that must leave HAL responses as they are. */
export interface HalWrapper {
  /** Adds links; a link with a relation already present replaces it. */
  addLinks(...links: WebLink[]): this;
  toJSON(): Record<string, unknown>;
}

/**
 * An entity with links, written as `{...fields, _links: {rel: {href, title?, type?}}}` (draft-kelly-json-hal).
 *
 * @example
 * new HalEntityWrapper(record, { href: 'http://x/records/1', rel: 'self' }).toJSON();
 * // { id: 1, slug: 'first', value: 'First value', _links: { self: { href: 'http://x/records/1' } } }
 */
export class HalEntityWrapper<T extends object = object> extends WithHalLinks implements HalWrapper {
  readonly entity: T;

  constructor(entity: T, ...links: WebLink[]) {
    super(links);
    this.entity = entity;
  }

  /** Links added later are made absolute with `resolve` (for `HalService`). */
  static resolving<T extends object>(entity: T, resolve: HrefResolver, links: readonly WebLink[]): HalEntityWrapper<T> {
    return new HalEntityWrapper(entity, ...links).resolveWith(resolve);
  }

  toJSON(): Record<string, unknown> {
    const entity = this.entity as { toJSON?: () => unknown };
    const fields = typeof entity.toJSON === 'function' ? entity.toJSON() : entity;
    return {
      ...(typeof fields === 'object' && fields !== null ? fields : { value: fields }),
      _links: this.linksJSON(),
    };
  }
}

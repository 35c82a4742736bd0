/** The link objects of HAL's `_links` map, and the link set both HAL wrappers keep. */
import type { WebLink } from '../http/link-header';

/** One entry of `_links`: `href`, plus `title` and `type` when the link has them. */
export interface HalLink {
  readonly href: string;
  readonly title?: string;
  readonly type?: string;
}

export type HrefResolver = (href: string) => string;

/** The `_links` both HAL wrappers keep, by relation in the order added (a later link of a relation replaces it). */
export abstract class WithHalLinks {
  readonly #byRelation = new Map<string, HalLink>();
  #resolve: HrefResolver = (href) => href;

  protected constructor(links: readonly WebLink[]) {
    this.#put(links);
  }

  get links(): ReadonlyMap<string, HalLink> {
    return this.#byRelation;
  }

  /** Adds links; a link with a relation already present replaces it. */
  addLinks(...links: WebLink[]): this {
    this.#put(links.map((link) => ({ ...link, href: this.#resolve(link.href) })));
    return this;
  }

  protected resolveWith(resolve: HrefResolver): this {
    this.#resolve = resolve;
    return this;
  }

  protected linksJSON(): Record<string, HalLink> {
    return Object.fromEntries(this.#byRelation);
  }

  #put(links: readonly WebLink[]): void {
    for (const { rel, href, title, type } of links)
      this.#byRelation.set(rel, { href, ...(title !== undefined && { title }), ...(type !== undefined && { type }) });
  }
}

/** The link objects of HAL's `_links` map, and the link set both HAL wrappers keep. */
import type { WebLink } from '../http/link-header';

/** One entry of `_links`: `href`, plus `title` and `type` when the link has them. */
export interface HalLink {
  readonly href: string;
  readonly title?: string;
  readonly type?: string;
}

/** Turns a relative link into an absolute one; identity when links are kept as given. */
export type HrefResolver = (href: string) => string;

/**
 * What both HAL wrappers share: their `_links`, keyed by relation in the order added (a later link of the same
 * relation replaces an earlier one), readable and extendable. Links added later are made absolute with the
 * resolver, when one is set.
 */
export abstract class WithHalLinks {
  readonly #byRelation = new Map<string, HalLink>();
  #resolve: HrefResolver = (href) => href;

  protected constructor(links: readonly WebLink[]) {
    this.#put(links);
  }

  /** The links by relation, in the order they were added. */
  get links(): ReadonlyMap<string, HalLink> {
    return this.#byRelation;
  }

  /** Adds links; a link with a relation already present replaces it. */
  addLinks(...links: WebLink[]): this {
    this.#put(links.map((link) => ({ ...link, href: this.#resolve(link.href) })));
    return this;
  }

  /** Makes links added from now on absolute with `resolve` (used by `HalService`). */
  protected resolveWith(resolve: HrefResolver): this {
    this.#resolve = resolve;
    return this;
  }

  /** The `_links` object. */
  protected linksJSON(): Record<string, HalLink> {
    return Object.fromEntries(this.#byRelation);
  }

  #put(links: readonly WebLink[]): void {
    for (const link of links) {
      const entry: { href: string; title?: string; type?: string } = { href: link.href };
      if (link.title !== undefined) entry.title = link.title;
      if (link.type !== undefined) entry.type = link.type;
      this.#byRelation.set(link.rel, entry);
    }
  }
}

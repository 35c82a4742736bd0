/** The link object of HAL's `_links` map, and how web links become one. */
import type { WebLink } from '../http/link-header';

/** One entry of `_links`: `href`, plus `title` and `type` when the link has them. */
export interface HalLink {
  readonly href: string;
  readonly title?: string;
  readonly type?: string;
}

/** Adds `links` to a `_links` map, keyed by relation; a later link of the same relation replaces an earlier one. */
export function putHalLinks(target: Map<string, HalLink>, links: readonly WebLink[]): void {
  for (const link of links) {
    const entry: { href: string; title?: string; type?: string } = { href: link.href };
    if (link.title !== undefined) entry.title = link.title;
    if (link.type !== undefined) entry.type = link.type;
    target.set(link.rel, entry);
  }
}

/** The `_links` object of a map of HAL links. */
export function halLinksObject(links: ReadonlyMap<string, HalLink>): Record<string, HalLink> {
  return Object.fromEntries(links);
}

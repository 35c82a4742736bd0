// Web links (RFC 8288 §3): `Link` header values formatted.

import { quote } from './header-tokens';

/** A typed link, as the `Link` header carries it. */
export interface WebLink {
  readonly href: string;
  readonly rel: string;
  readonly title?: string;
  readonly type?: string;
}

// Characters that cannot stand inside `<...>` in a header: escape them as a URI would (RFC 3986 §2.1).
const NOT_URI_SAFE = /[^\x21-\x7e]|[<>"]/gu;

/** `<href>; rel="..."`, then `title` and `type`, every value quoted, as the Java framework writes them. */
export function formatLink(link: WebLink): string {
  let text = `<${link.href.replace(NOT_URI_SAFE, (c) => encodeURIComponent(c))}>; rel=${quote(link.rel)}`;
  if (link.title !== undefined) text += `; title=${quote(link.title)}`;
  if (link.type !== undefined) text += `; type=${quote(link.type)}`;
  return text;
}

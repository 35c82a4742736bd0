// Web links (RFC 8288 §3): `Link` header values formatted and parsed.

import { quote, TCHAR } from './header-tokens';

/** A typed link, as the `Link` header carries it. */
export interface WebLink {
  readonly href: string;
  readonly rel: string;
  readonly title?: string;
  readonly type?: string;
}

// Characters that cannot stand inside `<...>` in a header: escape them as a URI would (RFC 3986 §2.1).
const NOT_URI_SAFE = /[^\x21-\x7e]|[<>"]/gu;
const LINK_VALUE = /^<([^>]*)>(.*)$/s;
// link-param = token BWS [ "=" BWS ( token / quoted-string ) ] (RFC 8288 §3).
const LINK_PARAM = new RegExp(
  `[ \\t]*;[ \\t]*([${TCHAR}]+)[ \\t]*(?:=[ \\t]*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;,\\s"]+)))?[ \\t]*`,
  'y',
);

/** `<href>; rel="..."`, then `title` and `type`, every value quoted, as the Java framework writes them. */
export function formatLink(link: WebLink): string {
  let text = `<${link.href.replace(NOT_URI_SAFE, (c) => encodeURIComponent(c))}>; rel=${quote(link.rel)}`;
  if (link.title !== undefined) text += `; title=${quote(link.title)}`;
  if (link.type !== undefined) text += `; type=${quote(link.type)}`;
  return text;
}

/** The first of a parameter wins (RFC 8288 §3.3), `title*` over `title`; links without `rel` are skipped. */
export function parseLinkHeader(value: string | null | undefined): WebLink[] {
  if (value === null || value === undefined) return [];
  return splitLinks(value).flatMap((member) => parseLink(member) ?? []);
}

function parseLink(member: string): WebLink | undefined {
  const match = LINK_VALUE.exec(member);
  if (match === null) return undefined;
  const params = new Map<string, string>();
  const rest = match[2].trimEnd();
  let position = 0;
  while (position < rest.length) {
    LINK_PARAM.lastIndex = position;
    const param = LINK_PARAM.exec(rest);
    if (param === null || LINK_PARAM.lastIndex === position) return undefined;
    position = LINK_PARAM.lastIndex;
    const name = param[1].toLowerCase();
    const text = param[2] === undefined ? (param[3] ?? '') : param[2].replace(/\\(.)/g, '$1');
    if (!params.has(name)) params.set(name, text);
  }
  const rel = params.get('rel');
  if (rel === undefined) return undefined;
  const titleStar = params.get('title*');
  const title = (titleStar === undefined ? undefined : decodeExtValue(titleStar)) ?? params.get('title');
  const type = params.get('type');
  return { href: match[1], rel, ...(title === undefined ? {} : { title }), ...(type === undefined ? {} : { type }) };
}

/** RFC 8187 §3.2 ext-value `UTF-8'lang'pct-encoded`. */
function decodeExtValue(text: string): string | undefined {
  const match = /^UTF-8'[^']*'(.*)$/i.exec(text);
  if (match === null) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}

/** Splits on commas outside `<...>` and quoted strings: both may contain commas. */
function splitLinks(value: string): string[] {
  const members: string[] = [];
  let start = 0;
  let inUri = false;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quoted && c === '\\') i++;
    else if (!inUri && c === '"') quoted = !quoted;
    else if (!quoted && (c === '<' || c === '>')) inUri = c === '<';
    else if (c === ',' && !quoted && !inUri) {
      members.push(value.slice(start, i).trim());
      start = i + 1;
    }
  }
  members.push(value.slice(start).trim());
  return members.filter((member) => member !== '');
}

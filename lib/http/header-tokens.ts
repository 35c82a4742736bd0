// Lexical rules of HTTP field values (RFC 9110 §5.6). Knows no particular header.

/** tchar (RFC 9110 §5.6.2) as a character class body. */
export const TCHAR = "!#$%&'*+\\-.^_`|~0-9A-Za-z";

const TOKEN = new RegExp(`^[${TCHAR}]+$`);

/** One `OWS ";" OWS [ name "=" ( token / quoted-string ) ]` (RFC 9110 §5.6.6); `=` takes no whitespace. */
const PARAMETER = new RegExp(`[ \\t]*;[ \\t]*(?:([${TCHAR}]+)=(?:([${TCHAR}]+)|"((?:[^"\\\\]|\\\\.)*)"))?`, 'y');

export function isToken(text: string): boolean {
  return TOKEN.test(text);
}

export function quoteIfNeeded(value: string): string {
  return isToken(value) ? value : quote(value);
}

/** RFC 9110 §5.6.4. */
export function quote(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}

/** Outside quoted strings; members trimmed, empty ones dropped (RFC 9110 §5.6.1 has recipients accept them). */
export function splitHeaderList(value: string, separator = ','): string[] {
  const split = separator.charCodeAt(0);
  const members: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (quoted && c === 0x5c)
      i++; // quoted-pair: skip the escaped character
    else if (c === 0x22) quoted = !quoted;
    else if (c === split && !quoted) {
      pushTrimmed(members, value.slice(start, i));
      start = i + 1;
    }
  }
  pushTrimmed(members, value.slice(start));
  return members;
}

function pushTrimmed(members: string[], member: string): void {
  const trimmed = member.trim();
  if (trimmed !== '') members.push(trimmed);
}

/** `*( OWS ";" OWS [ parameter ] )` (RFC 9110 §5.6.6), names lower-cased; undefined when not that grammar. */
export function parseParameters(text: string): Array<[string, string]> | undefined {
  const pairs: Array<[string, string]> = [];
  const end = text.trimEnd().length;
  let position = 0;
  while (position < end) {
    PARAMETER.lastIndex = position;
    const match = PARAMETER.exec(text);
    if (match === null) return undefined;
    position = PARAMETER.lastIndex;
    const [, name, token, quoted] = match;
    if (name !== undefined) {
      pairs.push([name.toLowerCase(), token ?? (quoted ?? '').replace(/\\(.)/g, '$1')]);
    }
  }
  return pairs;
}

/** A weight (RFC 9110 §12.4.2), leniently any decimal in [0, 1]: Java's default `Accept` sends `q=.2`. */
export function parseQuality(text: string): number | undefined {
  if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(text)) return undefined;
  const q = Number(text);
  return q <= 1 ? q : undefined;
}

// field-content (RFC 9110 §5.5): never CR, LF, NUL or another control.
const FIELD_VALUE_OUTSIDE = /[^\t\x20-\x7e\x80-\xff]/;

/** A value with controls would split the head, or be refused by the server. */
export function isSendableField(name: string, value: string): boolean {
  return TOKEN.test(name) && !FIELD_VALUE_OUTSIDE.test(value);
}

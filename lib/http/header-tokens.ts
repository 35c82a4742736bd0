// Shared lexical rules of HTTP field values (RFC 9110 §5.6): tokens, quoted strings, lists,
// parameters and weights. Knows no particular header.

/** tchar (RFC 9110 §5.6.2) as a character class body, reused by the parsers of this folder. */
export const TCHAR = "!#$%&'*+\\-.^_`|~0-9A-Za-z";

const TOKEN = new RegExp(`^[${TCHAR}]+$`);

/** One `OWS ";" OWS [ name "=" ( token / quoted-string ) ]` (RFC 9110 §5.6.6); `=` takes no whitespace. */
const PARAMETER = new RegExp(`[ \\t]*;[ \\t]*(?:([${TCHAR}]+)=(?:([${TCHAR}]+)|"((?:[^"\\\\]|\\\\.)*)"))?`, 'y');

/**
 * Whether `text` is a token (RFC 9110 §5.6.2), the grammar of header names, media type parts,
 * parameter names and cookie names.
 *
 * @example isToken('charset') // true; isToken('a b') // false
 */
export function isToken(text: string): boolean {
  return TOKEN.test(text);
}

/**
 * Formats a parameter value: as is when it is a token, else as a quoted-string with `"` and `\`
 * escaped (RFC 9110 §5.6.4).
 *
 * @example quoteIfNeeded('UTF-8') // 'UTF-8'; quoteIfNeeded('a b') // '"a b"'
 */
export function quoteIfNeeded(value: string): string {
  return isToken(value) ? value : quote(value);
}

/** Always quotes, escaping `"` and `\` (RFC 9110 §5.6.4). @example quote('T') // '"T"' */
export function quote(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}

/**
 * Splits a list-based field value on commas (or another `separator`, such as the `;` between parameters) outside
 * quoted strings, trimming each member and dropping empty ones, which RFC 9110 §5.6.1 requires recipients to accept.
 *
 * @example splitHeaderList('a, "b,c", , d') // ['a', '"b,c"', 'd']
 */
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

/**
 * Parses `*( OWS ";" OWS [ parameter ] )` (RFC 9110 §5.6.6) into name/value pairs, names
 * lower-cased (they are case-insensitive) and quoted values unescaped. Returns undefined when
 * `text` does not follow that grammar.
 *
 * @example parseParameters('; charset="utf-8";q=1') // [['charset', 'utf-8'], ['q', '1']]
 */
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

/**
 * Reads a weight (RFC 9110 §12.4.2). Leniently accepts any decimal in [0, 1] (`.5`, `0.12345`),
 * since clients such as Java's default `Accept` send `q=.2`; returns undefined for anything else.
 *
 * @example parseQuality('0.5') // 0.5; parseQuality('2') // undefined
 */
export function parseQuality(text: string): number | undefined {
  if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(text)) return undefined;
  const q = Number(text);
  return q <= 1 ? q : undefined;
}

// field-content (RFC 9110 §5.5): visible characters, spaces and tabs, and obs-text; never CR, LF, NUL or another control.
const FIELD_VALUE_OUTSIDE = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * Whether a header field can be sent as it is: its name a token, its value free of CR, LF and other controls (a
 * value that has them would split the head, or is refused by the server).
 *
 * @example isSendableField('location', '/a'); // true
 * isSendableField('location', '/a\r\nset-cookie: x=1'); // false
 */
export function isSendableField(name: string, value: string): boolean {
  return TOKEN.test(name) && !FIELD_VALUE_OUTSIDE.test(value);
}

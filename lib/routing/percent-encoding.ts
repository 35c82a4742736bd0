// Percent-encoding of request paths, matrix parameters and template values (RFC 3986 §2.1, §2.4, §3.3); knows nothing of routes.

/**
 * Escapes kept encoded by {@link normalizeEscapes}: `%2F` would otherwise turn a character inside a
 * segment into a segment separator, and `%25` keeps a literal `%` distinguishable from an escape.
 */
const KEPT_ESCAPE = /(%2[Ff]|%25)/;
const KEPT_ESCAPE_GLOBAL = /%2F|%25/g;
/** pchar keeps `:` `@` and the sub-delimiters raw (RFC 3986 §3.3); `;` stays encoded so it never reads as a matrix parameter. */
const PCHAR_KEPT = /%(?:3A|40|24|26|2B|2C|3D)/g;
/** An escape of a C0 control or DEL; in UTF-8 those bytes only ever stand for themselves, so the raw text tells. */
const CONTROL_ESCAPE = /%(?:[01][0-9A-Fa-f]|7[Ff])/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Decodes every percent-escape of `text` except `%2F` and `%25`, which stay encoded (upper-cased), so that the
 * result can be matched against templates with `/` still meaning "segment separator" only.
 * Returns `undefined` when an escape is malformed (`%zz`, truncated `%4`) or the bytes are not UTF-8 (RFC 3629).
 *
 * @example
 * normalizeEscapes('/caf%C3%A9/a%2fb'); // '/café/a%2Fb'
 * normalizeEscapes('/%E0%A4');          // undefined
 */
export function normalizeEscapes(text: string): string | undefined {
  if (text.indexOf('%') === -1) return text;
  if (!KEPT_ESCAPE.test(text)) return decodeComponent(text);
  // %2F and %25 are ASCII bytes, so splitting on them never cuts a valid UTF-8 sequence in two.
  const parts = text.split(KEPT_ESCAPE);
  try {
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as string;
      parts[i] = i % 2 === 1 ? part.toUpperCase() : decodeURIComponent(part);
    }
  } catch {
    return undefined;
  }
  return parts.join('');
}

/**
 * Whether `text` percent-encodes a C0 control (U+0000–U+001F) or DEL: a path names things, and RFC 3986 §7.3 has
 * `%00` refused where raw data is not expected (C-backed code cuts a name at a NUL). The raw text is enough: those
 * bytes are never part of a longer UTF-8 sequence, an overlong form of one (`%C0%80`) is no UTF-8 at all, and `%2500`
 * is the text `%00`, not an escape of NUL.
 *
 * @example
 * encodesControl('/a%00b');   // true
 * encodesControl('/a%2500b'); // false
 */
export function encodesControl(text: string): boolean {
  return text.indexOf('%') !== -1 && CONTROL_ESCAPE.test(text);
}

/**
 * Decodes a value captured from a path produced by {@link normalizeEscapes}: `%2F` → `/`, `%25` → `%`.
 *
 * @example
 * decodeRoutedValue('a%2Fb%25'); // 'a/b%'
 */
export function decodeRoutedValue(value: string): string {
  if (value.indexOf('%') === -1) return value;
  return value.replace(KEPT_ESCAPE_GLOBAL, (escape) => (escape === '%25' ? '%' : '/'));
}

/**
 * Fully decodes one component (a matrix parameter name or value); `undefined` when malformed.
 *
 * @example
 * decodeComponent('a%3Bb'); // 'a;b'
 */
export function decodeComponent(text: string): string | undefined {
  if (text.indexOf('%') === -1) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * Percent-encodes `value` as one path segment (RFC 3986 §3.3): everything but unreserved characters, `:`, `@` and
 * sub-delimiters other than `;` is escaped as UTF-8; lone surrogates become U+FFFD instead of throwing.
 *
 * @example
 * encodePathSegment('a b/c;d'); // 'a%20b%2Fc%3Bd'
 */
export function encodePathSegment(value: string): string {
  return encodeURIComponent(value.replace(LONE_SURROGATE, '\uFFFD')).replace(PCHAR_KEPT, decodeURIComponent);
}

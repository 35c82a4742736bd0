// Percent-encoding of paths, matrix parameters and template values (RFC 3986 §2.1, §2.4, §3.3); knows no routes.

/** Kept encoded: `%2F` would become a segment separator, and `%25` keeps a literal `%` apart from an escape. */
const KEPT_ESCAPE = /(%2[Ff]|%25)/;
const KEPT_ESCAPE_GLOBAL = /%2F|%25/g;
/** pchar keeps `:` `@` and sub-delimiters raw (RFC 3986 §3.3); `;` stays encoded, never read as a matrix parameter. */
const PCHAR_KEPT = /%(?:3A|40|24|26|2B|2C|3D)/g;
/** A C0 control or DEL: in UTF-8 those bytes only stand for themselves, so the raw text tells. */
const CONTROL_ESCAPE = /%(?:[01][0-9A-Fa-f]|7[Ff])/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Every escape but `%2F` and `%25` (upper-cased) decoded; `undefined` when malformed or not UTF-8 (RFC 3629). */
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

/** RFC 3986 §7.3 has `%00` refused where raw data is not expected (C-backed code cuts a name at a NUL). */
export function encodesControl(text: string): boolean {
  return text.indexOf('%') !== -1 && CONTROL_ESCAPE.test(text);
}

/** Undoes what {@link normalizeEscapes} kept. */
export function decodeRoutedValue(value: string): string {
  if (value.indexOf('%') === -1) return value;
  return value.replace(KEPT_ESCAPE_GLOBAL, (escape) => (escape === '%25' ? '%' : '/'));
}

/** `undefined` when malformed. */
export function decodeComponent(text: string): string | undefined {
  if (text.indexOf('%') === -1) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** One path segment (RFC 3986 §3.3); lone surrogates become U+FFFD instead of throwing. */
export function encodePathSegment(value: string): string {
  return encodeURIComponent(value.replace(LONE_SURROGATE, '\uFFFD')).replace(PCHAR_KEPT, decodeURIComponent);
}

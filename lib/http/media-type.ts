// Media types (RFC 9110 §8.3.1): parsing, formatting, wildcards, and @Consumes matching. Knows nothing of Accept.

import { memoize } from './bounded-cache';
import { parseParameters, quoteIfNeeded, TCHAR } from './header-tokens';

/** A parsed media type; type, subtype and parameter names are lower-cased (case-insensitive). */
export interface MediaType {
  readonly type: string;
  readonly subtype: string;
  readonly params: Readonly<Record<string, string>>;
}

const TYPE_SUBTYPE = new RegExp(`^[ \\t]*([${TCHAR}]+)/([${TCHAR}]+)`);

/** `*` is a wildcard in media ranges only as `*\/*` or `type/*` (RFC 9110 §12.5.1). */
function parseUncached(text: string): MediaType | undefined {
  const match = TYPE_SUBTYPE.exec(text);
  if (match === null) return undefined;
  const type = match[1].toLowerCase();
  const subtype = match[2].toLowerCase();
  if (type === '*' && subtype !== '*') return undefined;
  const pairs = parseParameters(text.slice(match[0].length));
  if (pairs === undefined) return undefined;
  const params = emptyParams();
  for (const [name, value] of pairs) if (!Object.hasOwn(params, name)) params[name] = value;
  return Object.freeze({ type, subtype, params: Object.freeze(params) });
}

/** Prototype-less, so parameters named `__proto__` or `constructor` stay plain data. */
function emptyParams(): Record<string, string> {
  return Object.create(null) as Record<string, string>;
}

/**
 * Parses a media type or range such as `text/plain; charset="UTF-8"` (RFC 9110 §8.3.1); undefined when malformed
 * (`invalid`, `text/`, `*\/json`, a parameter without `=`). Results are cached and frozen.
 *
 * @example parseMediaType('Text/HTML;Charset=utf-8') // { type: 'text', subtype: 'html', params: { charset: 'utf-8' } }
 */
export const parseMediaType: (text: string) => MediaType | undefined = memoize(500, parseUncached);

/**
 * Creates a media type, lower-casing its names; handy for literals in code and tests.
 *
 * @example mediaType('application', 'json', { charset: 'UTF-8' })
 */
export function mediaType(type: string, subtype: string, params: Record<string, string> = {}): MediaType {
  const lowered = emptyParams();
  for (const [name, value] of Object.entries(params)) lowered[name.toLowerCase()] = value;
  return Object.freeze({ type: type.toLowerCase(), subtype: subtype.toLowerCase(), params: Object.freeze(lowered) });
}

/**
 * Formats a media type as the Java framework writes `Content-Type`: no space after `;`, values quoted when needed.
 *
 * @example formatMediaType(mediaType('text', 'plain', { charset: 'UTF-8' })) // 'text/plain;charset=UTF-8'
 */
export function formatMediaType(m: MediaType): string {
  let text = `${m.type}/${m.subtype}`;
  for (const [name, value] of Object.entries(m.params)) text += `;${name}=${quoteIfNeeded(value)}`;
  return text;
}

/** `*` matches anything on either side; parameters are ignored, as in JAX-RS `MediaType.isCompatible`. */
export function isCompatible(a: MediaType, b: MediaType): boolean {
  if (a.type === '*' || b.type === '*') return true;
  if (a.type !== b.type) return false;
  return a.subtype === '*' || b.subtype === '*' || a.subtype === b.subtype;
}

export function isConcrete(m: MediaType): boolean {
  return m.type !== '*' && m.subtype !== '*';
}

/** RFC 9110 §12.5.1 "more specific ranges override": 0 for `*\/*`, 1 for `type/*`, 2 for `type/subtype`. */
export function specificity(m: MediaType): 0 | 1 | 2 {
  if (m.type === '*') return 0;
  return m.subtype === '*' ? 1 : 2;
}

/** `m` itself when it has none of `names`. */
export function withoutParams(m: MediaType, names: readonly string[]): MediaType {
  if (!names.some((name) => Object.hasOwn(m.params, name))) return m;
  const params = emptyParams();
  for (const [name, value] of Object.entries(m.params)) if (!names.includes(name)) params[name] = value;
  return Object.freeze({ type: m.type, subtype: m.subtype, params: Object.freeze(params) });
}

/** `type/subtype` of a media type's text, lower-cased. */
export function baseType(mediaType: string): string {
  return mediaType.split(';', 1)[0]!.trim().toLowerCase();
}

/** `application/json` or any `+json` structured suffix (RFC 6839 §3.1), of a media type's text. */
export function isJsonText(mediaType: string): boolean {
  const base = baseType(mediaType);
  return base === 'application/json' || base.endsWith('+json');
}

/** The specificity of the most specific compatible entry, -1 for none: higher wins among several methods. */
export function rankConsumes(contentType: MediaType, consumes: readonly MediaType[]): number {
  let best = -1;
  for (const entry of consumes) {
    if (isCompatible(contentType, entry)) best = Math.max(best, specificity(entry));
  }
  return best;
}

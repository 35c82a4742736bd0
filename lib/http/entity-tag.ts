// Entity tags (RFC 9110 §8.8.3), their If-Match / If-None-Match lists, and the tags of content-coded variants.

import { splitHeaderList } from './header-tokens';

/** etagc (RFC 9110 §8.8.3): visible ASCII except `"`, plus obs-text. */
const OPAQUE = /^[\x21\x23-\x7e\x80-\xff]*$/;

/**
 * An entity tag, written quoted as the Java framework does; read with quotes optional, as clients send `If-Match: v1`.
 *
 * @example new EntityTag('v1', true).toString() // 'W/"v1"'
 */
export class EntityTag {
  readonly value: string;
  readonly weak: boolean;

  /** Throws a TypeError when `value` has a character an entity tag cannot carry (`"`, space, controls). */
  constructor(value: string, weak = false) {
    if (!OPAQUE.test(value)) throw new TypeError(`Invalid entity tag value: ${JSON.stringify(value)}`);
    this.value = value;
    this.weak = weak;
  }

  /**
   * Reads `"v1"`, `W/"v1"`, or, leniently, `v1` and `W/v1`. Throws a TypeError for an empty or invalid tag.
   *
   * @example EntityTag.parse('W/"abc"').weak // true
   */
  static parse(text: string): EntityTag {
    let rest = text.trim();
    const weak = rest.startsWith('W/');
    if (weak) rest = rest.slice(2);
    if (rest.length >= 2 && rest.startsWith('"') && rest.endsWith('"')) rest = rest.slice(1, -1);
    else if (rest === '') throw new TypeError(`Invalid entity tag: ${JSON.stringify(text)}`);
    return new EntityTag(rest, weak);
  }

  /** Strong comparison (RFC 9110 §8.8.3.2): both strong and equal values. Used by If-Match. */
  strongEquals(other: EntityTag): boolean {
    return !this.weak && !other.weak && this.value === other.value;
  }

  /** Weak comparison (RFC 9110 §8.8.3.2): equal values, weak flags ignored. Used by If-None-Match. */
  weakEquals(other: EntityTag): boolean {
    return this.value === other.value;
  }

  /** The header form: `"v1"` or `W/"v1"`. */
  toString(): string {
    return `${this.weak ? 'W/' : ''}"${this.value}"`;
  }
}

/** An If-Match / If-None-Match value (RFC 9110 §13.1.1): `'*'`, else the tags; malformed members skipped. */
export function parseEntityTagList(header: string | null | undefined): EntityTag[] | '*' {
  if (header === null || header === undefined) return [];
  if (header.trim() === '*') return '*';
  const tags: EntityTag[] = [];
  for (const member of splitHeaderList(header)) {
    try {
      tags.push(EntityTag.parse(member));
    } catch {
      // A malformed member cannot match anything; the rest of the list still counts.
    }
  }
  return tags;
}

/** Their variants get tags of their own: one strong tag for two representations lets If-Range splice them. */
export const VARIANT_CODINGS: readonly string[] = ['br', 'gzip', 'deflate'];

/** `"v57"` → `"v57-gzip"`, as weak or strong as `tag`. */
export function variantTag(tag: EntityTag, coding: string): EntityTag {
  return new EntityTag(`${tag.value}-${coding}`, tag.weak);
}

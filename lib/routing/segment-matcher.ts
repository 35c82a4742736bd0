/**
 * Matches several `{name}`s in a segment (`{owner}-{repo}-{tag}`) in linear time: as lazy groups, a 4,000-character
 * path of dashes held the event loop 6.7 s. Each variable takes the shortest text that lets the rest match.
 */

/** Literal text (escapes decoded), or `null` for a `{name}` variable. */
export type TemplatePart = string | null;

/** What a router asks of a compiled template. */
export interface TemplateRegex {
  exec(path: string): RegExpExecArray | null;
  test(path: string): boolean;
}

const SLASH = 47;

export class SegmentMatcher implements TemplateRegex {
  readonly #parts: readonly TemplatePart[];
  readonly #trailingSlash: boolean;

  constructor(parts: readonly TemplatePart[], trailingSlash: boolean) {
    this.#parts = parts;
    this.#trailingSlash = trailingSlash;
  }

  test(path: string): boolean {
    return this.#fits(path)[0] === 1;
  }

  exec(path: string): RegExpExecArray | null {
    const fits = this.#fits(path);
    if (fits[0] !== 1) return null;
    const width = path.length + 1;
    const match = [path];
    let at = 0;
    for (let i = 0; i < this.#parts.length; i++) {
      const part = this.#parts[i];
      if (part !== null) {
        at += part.length;
        continue;
      }
      let end = at + 1;
      while (fits[(i + 1) * width + end] !== 1) end++;
      match.push(path.slice(at, end));
      at = end;
    }
    return match as unknown as RegExpExecArray;
  }

  /** `fits[i * (n + 1) + p]`: whether parts from `i` on match the path from `p`; a row per pass, from the last. */
  #fits(path: string): Uint8Array {
    const n = path.length;
    const width = n + 1;
    const parts = this.#parts;
    const fits = new Uint8Array((parts.length + 1) * width);
    const last = parts.length * width;
    fits[last + n] = 1;
    if (this.#trailingSlash && n > 0 && path.charCodeAt(n - 1) === SLASH) fits[last + n - 1] = 1;
    for (let i = parts.length - 1; i >= 0; i--) {
      const part = parts[i];
      const row = i * width;
      const next = row + width;
      if (part !== null) {
        for (let p = 0; p + part.length <= n; p++)
          if (fits[next + p + part.length] === 1 && path.startsWith(part, p)) fits[row + p] = 1;
        continue;
      }
      // A variable at `p` fits when some end in (p, end of p's segment] does: the same ends as from p + 1, and p + 1.
      let reach = false;
      for (let p = n - 1; p >= 0; p--) {
        if (path.charCodeAt(p) === SLASH) reach = false;
        else {
          reach = reach || fits[next + p + 1] === 1;
          if (reach) fits[row + p] = 1;
        }
      }
    }
    return fits;
  }
}

/** Two variables in one segment: a regular expression of `parts` can take time beyond linear. */
export function sharesSegments(parts: readonly TemplatePart[]): boolean {
  let inSegment = 0;
  for (const part of parts) {
    if (part === null) {
      if (++inSegment > 1) return true;
    } else if (part.includes('/')) inSegment = 0;
  }
  return false;
}

/**
 * Matches a segment of variables with regexes of their own (`{owner}-{repo}-{tag: [a-z]+}`) without one expression
 * over it (a crafted 16 KB segment held the event loop for minutes): a memoised search in the expression's order,
 * each regex run on its candidate text alone, past {@link workLimit} no match. Knows nothing of requests.
 */
import type { TemplatePart, TemplateRegex } from './segment-matcher';
import { outsideClasses } from './slash-analysis';

/** How many of a regex variable's possible ends one lookahead names when the regex's own order chooses among them. */
const ENDS_PER_CHOICE = 32;

/** Linear in both, with room to spare. */
export function workLimit(length: number, parts: number): number {
  return (parts + 256) * (length + 1) + 65_536;
}

interface OwnRegex {
  readonly source: string;
  /** `^(regex)$`: whether a candidate text is the variable's, and its groups. */
  readonly whole: RegExp;
  /** `^(?:regex)`: the end the regex itself prefers, from a start. */
  readonly first: RegExp;
}

/** No `\b` or `\B`, which look past the variable's text. */
export function fitsMixedSegment(regex: string): boolean {
  return !/\\[bB]/.test(regex);
}

/** No anchor, lookaround, back-reference or word boundary, which look past its text (a `^` negating a class is none). */
export function fitsWholeTemplate(regex: string): boolean {
  return !/[\^$]|\(\?[=!<]|\\[1-9bBk]/.test(outsideClasses(regex));
}

export class MixedSegmentMatcher implements TemplateRegex {
  readonly #parts: readonly TemplatePart[];
  /** Per part: the variable's own regex, or `undefined` for literal text and `{name}` variables. */
  readonly #own: readonly (OwnRegex | undefined)[];
  readonly #trailingSlash: boolean;

  /** `own`: each variable's regex, each {@link fitsMixedSegment} (for a whole template {@link fitsWholeTemplate}). */
  constructor(pieces: readonly TemplatePart[], own: readonly string[], plain: string, trailingSlash = false) {
    let variable = 0;
    this.#trailingSlash = trailingSlash;
    this.#parts = pieces;
    this.#own = pieces.map((piece) => {
      if (piece !== null) return undefined;
      const source = own[variable++]!;
      if (source === plain) return undefined;
      return { source, whole: new RegExp(`^(${source})$`), first: new RegExp(`^(?:${source})`) };
    });
  }

  test(text: string): boolean {
    return this.exec(text) !== null;
  }

  exec(text: string): RegExpExecArray | null {
    return this.measure(text).match;
  }

  /** `work`: states searched, candidate ends tried and runs of the application's regexes. */
  measure(text: string): { readonly match: RegExpExecArray | null; readonly work: number } {
    const search = new SegmentSearch(this.#parts, this.#own, text, this.#trailingSlash);
    const match = search.run();
    return { match, work: search.work };
  }
}

/** Binary search of the ascending `positions`. */
function firstAtLeast(positions: readonly number[], p: number): number {
  let low = 0;
  let high = positions.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (positions[middle]! < p) low = middle + 1;
    else high = middle;
  }
  return low;
}

const SLASH = 47;
const UNKNOWN = 0;
const NO = 1;
const YES = 2;

/** Memo tables of (part, position) states, sized to the text. */
class SegmentSearch {
  work = 0;
  readonly #parts: readonly TemplatePart[];
  readonly #own: readonly (OwnRegex | undefined)[];
  readonly #text: string;
  readonly #width: number;
  readonly #limit: number;
  /** `fits[i * width + p]`: whether parts from `i` on match the text from `p` to its end. */
  readonly #fits: Uint8Array;
  /** `next[i * width + p]`: 0 unknown, -1 none, else 1 + the first `e > p` where parts from `i` on fit. */
  readonly #next: Int32Array;
  /** Per part, once worked out: every position from which the parts from it on fit. */
  readonly #fitting: (readonly number[] | undefined)[] = [];
  readonly #trailingSlash: boolean;

  constructor(
    parts: readonly TemplatePart[],
    own: readonly (OwnRegex | undefined)[],
    text: string,
    trailingSlash: boolean,
  ) {
    this.#trailingSlash = trailingSlash;
    this.#parts = parts;
    this.#own = own;
    this.#text = text;
    this.#width = text.length + 1;
    this.#limit = workLimit(text.length, parts.length);
    this.#fits = new Uint8Array((parts.length + 1) * this.#width);
    this.#next = new Int32Array((parts.length + 1) * this.#width);
  }

  run(): RegExpExecArray | null {
    if (!this.#fitsAt(0, 0) || this.#exhausted()) return null;
    const text = this.#text;
    const match: (string | undefined)[] = [text];
    let at = 0;
    for (let i = 0; i < this.#parts.length; i++) {
      const part = this.#parts[i]!;
      const own = this.#own[i];
      if (part !== null) {
        at += part.length;
        continue;
      }
      const end = own === undefined ? this.#nextFit(i + 1, at) : this.#preferredEnd(i, own, at);
      if (end === -1 || this.#exhausted()) return null;
      if (own === undefined) match.push(text.slice(at, end));
      else match.push(...(own.whole.exec(text.slice(at, end)) as RegExpExecArray).slice(1));
      at = end;
    }
    return match as unknown as RegExpExecArray;
  }

  #exhausted(): boolean {
    return this.work > this.#limit;
  }

  #fitsAt(i: number, p: number): boolean {
    const slot = i * this.#width + p;
    const known = this.#fits[slot]!;
    if (known !== UNKNOWN) return known === YES;
    this.work++;
    if (this.#exhausted()) return false;
    const fits = this.#decide(i, p);
    this.#fits[slot] = fits ? YES : NO;
    return fits;
  }

  #decide(i: number, p: number): boolean {
    const parts = this.#parts;
    const n = this.#text.length;
    if (i === parts.length)
      return p === n || (this.#trailingSlash && p === n - 1 && this.#text.charCodeAt(p) === SLASH);
    const part = parts[i]!;
    if (part !== null) return this.#text.startsWith(part, p) && this.#fitsAt(i + 1, p + part.length);
    const own = this.#own[i];
    if (own === undefined) return this.#nextFit(i + 1, p) !== -1;
    const preferred = this.#firstEnd(own, p);
    // No text from `p` on starts with the regex's match, so no end does.
    if (preferred === -1) return false;
    if (this.#fitsAt(i + 1, preferred)) return true;
    return this.#wholeEnds(i, own, p, 1).length > 0;
  }

  /** Up to `most` ends where the rest fits and the regex takes the text: a regex last in its segment runs once. */
  #wholeEnds(i: number, own: OwnRegex, p: number, most: number): number[] {
    const fitting = this.#fittingEnds(i + 1);
    const ends: number[] = [];
    for (let k = firstAtLeast(fitting, p); k < fitting.length && ends.length < most && !this.#exhausted(); k++) {
      this.work++;
      if (this.#isWhole(own, p, fitting[k]!)) ends.push(fitting[k]!);
    }
    return ends;
  }

  #fittingEnds(i: number): readonly number[] {
    const known = this.#fitting[i];
    if (known !== undefined) return known;
    const ends: number[] = [];
    for (let p = 0; p <= this.#text.length && !this.#exhausted(); p++) {
      this.work++;
      if (this.#fitsAt(i, p)) ends.push(p);
    }
    this.#fitting[i] = ends;
    return ends;
  }

  /** The first `e > p` from which parts from `i` on fit, or -1: a `{name}`'s shortest text that lets the rest match. */
  #nextFit(i: number, p: number): number {
    const row = i * this.#width;
    const pending: number[] = [];
    let found = -1;
    for (let q = p + 1; q <= this.#text.length && !this.#exhausted(); q++) {
      this.work++;
      // A `{name}` keeps to its segment: none of the ends past a `/` is its.
      if (this.#text.charCodeAt(q - 1) === SLASH) break;
      const known = this.#next[row + q - 1]!;
      if (known !== 0) {
        found = known === -1 ? -1 : known - 1;
        break;
      }
      pending.push(q - 1);
      if (this.#fitsAt(i, q)) {
        found = q;
        break;
      }
    }
    if (pending.length === 0 && p + 1 > this.#text.length) pending.push(p);
    for (const at of pending) this.#next[row + at] = found === -1 ? -1 : found + 1;
    return found;
  }

  /** Where the regex itself ends from `p` when nothing follows it, or -1. */
  #firstEnd(own: OwnRegex, p: number): number {
    this.work++;
    const found = own.first.exec(this.#text.slice(p));
    return found === null ? -1 : p + found[0].length;
  }

  #isWhole(own: OwnRegex, p: number, end: number): boolean {
    this.work++;
    return own.whole.test(this.#text.slice(p, end));
  }

  /**
   * The first end, in the regex's own order, after which the rest fits: past its preferred end the regex itself
   * chooses, a few ends at a time, through a lookahead naming how many characters may remain.
   */
  #preferredEnd(i: number, own: OwnRegex, p: number): number {
    const preferred = this.#firstEnd(own, p);
    if (preferred === -1 || this.#fitsAt(i + 1, preferred)) return preferred;
    const ends = this.#wholeEnds(i, own, p, Infinity);
    if (this.#exhausted() || ends.length === 0) return -1;
    let chosen = ends[0]!;
    for (let k = 1; k < ends.length; k += ENDS_PER_CHOICE - 1) {
      chosen = this.#choose(own, p, [chosen, ...ends.slice(k, k + ENDS_PER_CHOICE - 1)]);
    }
    return chosen;
  }

  /** Which of `ends` the regex reaches first: no path reads past the last, so the text is cut there. */
  #choose(own: OwnRegex, p: number, ends: readonly number[]): number {
    const last = ends[ends.length - 1]!;
    const remaining = ends.map((end) => `[^]{${last - end}}`).join('|');
    this.work += ends.length;
    const found = new RegExp(`^(?:${own.source})(?=(?:${remaining})$)`).exec(this.#text.slice(p, last));
    return p + (found as RegExpExecArray)[0].length;
  }
}

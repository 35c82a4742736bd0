/**
 * Matches segment by segment (no variable matches `/`) a template whose shared segment sits beside regex variables:
 * as one expression, its lazy groups backtracked cubically. Knows nothing of requests.
 */
import { fitsMixedSegment, MixedSegmentMatcher } from './mixed-segment-matcher';
import { SegmentMatcher, sharesSegments, type TemplatePart, type TemplateRegex } from './segment-matcher';
import { mayMatchSlash, outsideClasses } from './slash-analysis';
import { escapeRegex } from './template-parser';

/** No `/`, anchor, lookaround or back-reference (a `^` negating a class is none). */
export function staysInSegment(regex: string): boolean {
  return !mayMatchSlash(regex) && !/[\^$]|\(\?[=!<]/.test(outsideClasses(regex));
}

export class SegmentedMatcher implements TemplateRegex {
  readonly #segments: readonly TemplateRegex[];
  readonly #trailingSlash: boolean;

  /** `regexes`: each variable's, every one {@link staysInSegment} or `plain`. */
  constructor(parts: readonly TemplatePart[], regexes: readonly string[], plain: string, trailingSlash: boolean) {
    const segments: TemplateRegex[] = [];
    let pieces: TemplatePart[] = [];
    let own: string[] = [];
    const close = () => {
      segments.push(segmentMatcher(pieces, own, plain));
      pieces = [];
      own = [];
    };
    let variable = 0;
    for (const part of parts) {
      if (part === null) {
        pieces.push(null);
        own.push(regexes[variable++]!);
        continue;
      }
      part.split('/').forEach((text, i) => {
        if (i > 0) close();
        if (text !== '') pieces.push(text);
      });
    }
    close();
    this.#segments = segments;
    this.#trailingSlash = trailingSlash;
  }

  test(path: string): boolean {
    return this.exec(path) !== null;
  }

  exec(path: string): RegExpExecArray | null {
    const texts = path.split('/');
    const segments = this.#segments;
    if (this.#trailingSlash && texts.length === segments.length + 1 && texts[texts.length - 1] === '') texts.pop();
    if (texts.length !== segments.length) return null;
    const match: (string | undefined)[] = [path];
    for (let i = 0; i < segments.length; i++) {
      const found = segments[i]!.exec(texts[i]!);
      if (found === null) return null;
      for (let group = 1; group < found.length; group++) match.push(found[group]);
    }
    return match as unknown as RegExpExecArray;
  }
}

/** For several variables, a search never running an expression over the segment; else its anchored expression. */
function segmentMatcher(pieces: readonly TemplatePart[], own: readonly string[], plain: string): TemplateRegex {
  if (!sharesSegments(pieces)) return new RegExp(`^${regexSource(pieces, own)}$`);
  if (own.every((regex) => regex === plain)) return new SegmentMatcher(pieces, false);
  if (own.every(fitsMixedSegment)) return new MixedSegmentMatcher(pieces, own, plain);
  return new RegExp(`^${regexSource(pieces, own)}$`);
}

/** The unanchored regular expression of `pieces`, `own` the variables' regexes in order. */
export function regexSource(pieces: readonly TemplatePart[], own: readonly string[]): string {
  let variable = 0;
  return pieces.map((piece) => (piece === null ? `(${own[variable++]})` : escapeRegex(piece))).join('');
}

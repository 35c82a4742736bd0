/**
 * Matches, one segment at a time, a template whose segment of several `{name}` variables sits beside variables with
 * a regex of their own (`tags/{owner}-{repo}/{id: \d+}`, as a class path and a method path join). When no variable can
 * match `/`, the path's slashes are the template's, so each segment matches on its own and gives the values the whole
 * regular expression gives: a shared segment through a {@link SegmentMatcher} in linear time (beside a regex of its own,
 * a {@link MixedSegmentMatcher}, bounded), the others through their own piece of the regular expression. As one regular expression, a crafted path that did not match made its
 * lazy `([^/]+?)` groups backtrack cubically. Knows nothing of requests.
 */
import { fitsMixedSegment, MixedSegmentMatcher } from './mixed-segment-matcher';
import { SegmentMatcher, sharesSegments, type TemplatePart, type TemplateRegex } from './segment-matcher';
import { mayMatchSlash } from './slash-analysis';
import { escapeRegex } from './template-parser';

/** A regex of a variable's own that a segment can hold alone: no `/`, no anchor, lookaround or back-reference. */
export function staysInSegment(regex: string): boolean {
  return !mayMatchSlash(regex) && !/[\^$]|\(\?[=!<]/.test(regex);
}

export class SegmentedMatcher implements TemplateRegex {
  readonly #segments: readonly TemplateRegex[];
  readonly #trailingSlash: boolean;

  /**
   * `parts` as `SegmentMatcher` takes them, and `regexes`, each variable's regex in order (every one
   * {@link staysInSegment}, or the default `[^/]+?`); `plain` is that default.
   */
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

/**
 * One segment's matcher: for several variables in it, a search that never runs a regular expression over the whole
 * segment (the `{name}`s alone, or beside regexes of their own that look no further than their text); else the
 * segment's anchored regular expression.
 */
function segmentMatcher(pieces: readonly TemplatePart[], own: readonly string[], plain: string): TemplateRegex {
  if (!sharesSegments(pieces)) return segmentRegex(pieces, own);
  if (own.every((regex) => regex === plain)) return new SegmentMatcher(pieces, false);
  if (own.every(fitsMixedSegment)) return new MixedSegmentMatcher(pieces, own, plain);
  return segmentRegex(pieces, own);
}

/** The anchored regular expression of one segment's pieces, `own` its variables' regexes in order. */
function segmentRegex(pieces: readonly TemplatePart[], own: readonly string[]): RegExp {
  let source = '^';
  let variable = 0;
  for (const piece of pieces) source += piece === null ? `(${own[variable++]})` : escapeRegex(piece);
  return new RegExp(`${source}$`);
}

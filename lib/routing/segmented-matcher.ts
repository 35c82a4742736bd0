/**
 * Matches, one segment at a time, a template whose segment of several `{name}` variables sits beside variables with
 * a regex of their own (`tags/{owner}-{repo}/{id: \d+}`, as a class path and a method path join). When no variable can
 * match `/`, the path's slashes are the template's, so each segment matches on its own and gives the values the whole
 * regular expression gives: the shared segment through a {@link SegmentMatcher} in linear time, the others through
 * their own piece of the regular expression. As one regular expression, a crafted path that did not match made its
 * lazy `([^/]+?)` groups backtrack cubically. Knows nothing of requests.
 */
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
      const alone = own.every((regex) => regex === plain);
      segments.push(alone && sharesSegments(pieces) ? new SegmentMatcher(pieces, false) : segmentRegex(pieces, own));
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

/** The anchored regular expression of one segment's pieces, `own` its variables' regexes in order. */
function segmentRegex(pieces: readonly TemplatePart[], own: readonly string[]): RegExp {
  let source = '^';
  let variable = 0;
  for (const piece of pieces) source += piece === null ? `(${own[variable++]})` : escapeRegex(piece);
  return new RegExp(`${source}$`);
}

// Path templates compiled to matchers and precedence keys (the Java REST specification's rules); knows no requests.
import { decodeRoutedValue, normalizeEscapes } from './percent-encoding';
import { SegmentMatcher, sharesSegments, type TemplatePart, type TemplateRegex } from './segment-matcher';
import { fitsWholeTemplate, MixedSegmentMatcher } from './mixed-segment-matcher';
import { regexSource, SegmentedMatcher, staysInSegment } from './segmented-matcher';
import { mayMatchSlash } from './slash-analysis';
import { parseTemplate, TemplateError, templateRegex, type TemplateToken } from './template-parser';

export interface TemplateCapture {
  readonly name: string;
  readonly group: number;
}

export interface PathTemplate {
  readonly template: string;
  /** Unique, in order of first appearance. */
  readonly variables: readonly string[];
  /** Anchored, one trailing slash tolerated; runs on `parseRequestPath`'s paths: read values by {@link readParams}. */
  readonly regex: TemplateRegex;
  /** The precedence keys, in order: literal characters (escapes decoded), variables, variables with a regex. */
  readonly literalCharacters: number;
  readonly variableCount: number;
  readonly regexVariableCount: number;
  /** Variables as `{}` or `{:regex}`: equal for templates that match the same paths alike (`v1/{a}`, `v1/{b}`). */
  readonly normalized: string;
  /** No variables: {@link normalized} is then the one path the template matches (besides a trailing slash). */
  readonly isLiteral: boolean;
  /** One entry per variable occurrence: in params, the last occurrence of a name wins. */
  readonly captures: readonly TemplateCapture[];
  /** A matching path (without trailing slash) has exactly as many `/`, or at least as many when… */
  readonly slashCount: number;
  /** …a variable's regex may match `/` (`{path: .+}`). */
  readonly spansSegments: boolean;
}

/** As in the Java REST specification: one segment, shortest match. */
const DEFAULT_VARIABLE_REGEX = '[^/]+?';
const UNESCAPED_PERCENT = /%(?![0-9A-Fa-f]{2})/g;

/** One `/` between non-empty parts, a leading `/`, no trailing `/` except for the root. */
export function joinPaths(...parts: string[]): string {
  let joined = '';
  for (const part of parts) {
    const trimmed = part.replace(/^\/+|\/+$/g, '');
    if (trimmed !== '') joined += '/' + trimmed;
  }
  return joined === '' ? '/' : joined;
}

/** Literal text may be raw or percent-encoded (`café`, `caf%C3%A9`); throws a {@link TemplateError} when malformed. */
export function compilePathTemplate(template: string): PathTemplate {
  const tokens = parseTemplate(joinPaths(template), template);
  const captures: TemplateCapture[] = [];
  const regexByName = new Map<string, string>();
  let normalized = '';
  let group = 1;
  const parts: TemplatePart[] = [];
  const variableRegexes: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'literal') {
      const text = normalizeLiteral(token.text, template);
      normalized += text;
      parts.push(text);
      continue;
    }
    const regex = checkReuse(token, regexByName, template);
    variableRegexes.push(regex);
    normalized += token.regex === undefined ? '{}' : `{:${token.regex}}`;
    captures.push({ name: token.name, group });
    group += 1 + countCapturingGroups(regex);
    parts.push(null);
  }
  const regexes = tokens.flatMap((token) =>
    token.kind === 'variable' && token.regex !== undefined ? [token.regex] : [],
  );
  return {
    template,
    variables: [...regexByName.keys()],
    regex: matcherOf(parts, variableRegexes, normalized !== '/', template),
    ...literalKeys(parts),
    variableCount: captures.length,
    regexVariableCount: regexes.length,
    normalized,
    isLiteral: captures.length === 0,
    captures,
    spansSegments: regexes.some((regex) => mayMatchSlash(regex)),
  };
}

/** For two `{name}`s in one segment a linear-time matcher, unless beside regexes that may look past their text. */
function matcherOf(
  parts: readonly TemplatePart[],
  regexes: readonly string[],
  trailingSlash: boolean,
  template: string,
): TemplateRegex {
  const source = `^${regexSource(parts, regexes)}${trailingSlash ? '/?$' : '$'}`;
  const regex = templateRegex(source, template, 'regular expressions do not combine');
  if (!sharesSegments(parts)) return regex;
  if (regexes.every((own) => own === DEFAULT_VARIABLE_REGEX)) return new SegmentMatcher(parts, trailingSlash);
  const plainOr = (fits: (own: string) => boolean) =>
    regexes.every((own) => own === DEFAULT_VARIABLE_REGEX || fits(own));
  if (plainOr(staysInSegment)) return new SegmentedMatcher(parts, regexes, DEFAULT_VARIABLE_REGEX, trailingSlash);
  // A regex that may match `/` (`{rest: .+}`): the whole path is searched, each `{name}` within its segment.
  if (plainOr(fitsWholeTemplate)) return new MixedSegmentMatcher(parts, regexes, DEFAULT_VARIABLE_REGEX, trailingSlash);
  return regex;
}

function literalKeys(parts: readonly TemplatePart[]): { literalCharacters: number; slashCount: number } {
  const literal = parts.filter((part) => part !== null).join('');
  return { literalCharacters: literal.length, slashCount: literal.split('/').length - 1 };
}

function normalizeLiteral(text: string, template: string): string {
  if (text.indexOf('%') === -1) return text;
  // A `%` that starts no escape is a literal percent sign (the @Path rule: never double-encode, never reject).
  const normalized = normalizeEscapes(text.replace(UNESCAPED_PERCENT, '%25'));
  if (normalized === undefined) throw new TemplateError(template, `percent-escapes in "${text}" are not UTF-8`);
  return normalized;
}

function checkReuse(token: TemplateToken & { kind: 'variable' }, regexByName: Map<string, string>, template: string) {
  const regex = token.regex ?? DEFAULT_VARIABLE_REGEX;
  const previous = regexByName.get(token.name);
  if (previous !== undefined && previous !== regex) {
    throw new TemplateError(template, `variable {${token.name}} is used twice with different regular expressions`);
  }
  regexByName.set(token.name, regex);
  return regex;
}

/** An empty alternative always matches, and its match array has one slot per capturing group of `regex`. */
function countCapturingGroups(regex: string): number {
  return (new RegExp(`(?:${regex})|`).exec('') as RegExpExecArray).length - 1;
}

/** Params inherit nothing yet stay fast: `Object.create(null)` ones are V8 dictionaries (4–5% of a request's CPU). */
const PARAMS_PROTOTYPE: object = Object.freeze(Object.create(null) as object);

/** Of a literal route, or of a request not routed yet. */
export const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze(
  Object.create(PARAMS_PROTOTYPE) as Record<string, string>,
);

/** A variable named `__proto__` or `constructor` is an ordinary key. */
export function readParams(template: PathTemplate, match: RegExpExecArray): Record<string, string> {
  const params = Object.create(PARAMS_PROTOTYPE) as Record<string, string>;
  const { captures } = template;
  for (let i = 0; i < captures.length; i++) {
    const capture = captures[i];
    const value = match[capture.group];
    params[capture.name] = value === undefined ? '' : decodeRoutedValue(value);
  }
  return params;
}

export function matchTemplate(template: PathTemplate, path: string): Record<string, string> | undefined {
  const match = template.regex.exec(path);
  return match === null ? undefined : readParams(template, match);
}
